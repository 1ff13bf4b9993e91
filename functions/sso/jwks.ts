// GET /api/sso/jwks: the tenant's public signing keys.
import { api } from '../../shared/http/api';

export const handler = api('get-jwks', async ({ services }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: await services.tokenVerifier.jwks(),
}));
