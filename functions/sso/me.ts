// GET /api/sso/me: who the calling token belongs to.
import { api } from '../../shared/http/api';

export const handler = api('get-me', async ({ auth, services }) => {
  if (!auth) throw new Error('get-me runs only behind token authentication');
  return {
    body: {
      sub: auth.sub,
      client_id: auth.clientId,
      tenant_id: services.config.tenantId,
      scopes: auth.scopes,
      exp: auth.expiresAt,
      expires_at: new Date(auth.expiresAt * 1000).toISOString(),
    },
  };
});
