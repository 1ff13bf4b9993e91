// POST /api/sso/token: OAuth 2.0 token endpoint.
import { issueToken } from '../../shared/auth/token-endpoint';
import { api } from '../../shared/http/api';

export const handler = api('create-token', issueToken);
