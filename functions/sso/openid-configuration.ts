// GET /api/sso/.well-known/openid-configuration: authorization server metadata (RFC 8414).

import { authorizationServerMetadata } from '../../shared/auth/metadata';
import { api } from '../../shared/http/api';

export const handler = api('get-openid-configuration', async ({ services }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: authorizationServerMetadata(services.config),
}));
