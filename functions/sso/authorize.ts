// GET /api/sso/authorize: checks an authorization request and shows the sign-in page.
import { startSignIn } from '../../shared/auth/authorization-request';
import { api } from '../../shared/http/api';

export const handler = api('get-authorize', startSignIn);
