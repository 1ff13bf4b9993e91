// GET /api/sso/logout: OpenID Connect RP-Initiated Logout, the end-session endpoint.
import { logout } from '../../shared/auth/logout';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { pageApi } from '../../shared/wiring/page-api';
import { refreshTokenRepository } from '../../shared/wiring/refresh-token-repository';
import { sessionRepository } from '../../shared/wiring/session-repository';
import { tokenVerifier } from '../../shared/wiring/token-verifier';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = pageApi(serviceRoute('get-logout'), (request) =>
  logout(request, {
    clients: clientRepository(),
    sessions: sessionRepository(),
    users: userRepository(),
    refreshTokens: refreshTokenRepository(),
    verifier: tokenVerifier(),
  }),
);
