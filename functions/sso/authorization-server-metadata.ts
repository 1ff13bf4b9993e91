// GET /.well-known/oauth-authorization-server/api/sso: authorization server metadata where RFC 8414
// section 3.1 looks for it, given the issuer <base>/api/sso; the same document as openid-configuration.
import { authorizationServerMetadata } from '../../shared/auth/metadata';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('get-oauth-authorization-server'), async ({ config }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: authorizationServerMetadata(config),
}));
