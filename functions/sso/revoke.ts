// POST /api/sso/revoke: OAuth 2.0 token revocation (RFC 7009).
import { revokeToken } from '../../shared/auth/revocation';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { publicApi } from '../../shared/wiring/public-api';
import { refreshTokenRepository } from '../../shared/wiring/refresh-token-repository';

export const handler = publicApi(serviceRoute('revoke-token'), (request) =>
  revokeToken(request, { clients: clientRepository(), refreshTokens: refreshTokenRepository() }),
);
