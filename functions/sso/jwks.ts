// GET /api/sso/jwks: the tenant's public signing keys.
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';
import { tokenVerifier } from '../../shared/wiring/token-verifier';

export const handler = publicApi(serviceRoute('get-jwks'), async () => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: await tokenVerifier().jwks(),
}));
