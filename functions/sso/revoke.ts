// POST /api/sso/revoke: OAuth 2.0 token revocation (RFC 7009).
import { revokeToken } from '../../shared/auth/revocation';
import { api } from '../../shared/http/api';

export const handler = api('revoke-token', revokeToken);
