// GET /api/sso/.well-known/openid-configuration: authorization server metadata (RFC 8414).
import { authorizationServerMetadata } from '../../shared/auth/metadata';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('get-openid-configuration'), async ({ config }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: authorizationServerMetadata(config),
}));
