// POST /api/sso/authorize: the sign-in form; on success, back to the client with a code.
import { signIn } from '../../shared/auth/sign-in';
import { api } from '../../shared/http/api';

export const handler = api('post-authorize', signIn);
