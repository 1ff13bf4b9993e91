// GET /api/sso/jwks: the tenant's public signing keys.
import { publicApi } from '../../shared/wiring/public-api';
import { tokenVerifier } from '../../shared/wiring/token-verifier';

export const handler = publicApi('get-jwks', async () => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: await tokenVerifier().jwks(),
}));
