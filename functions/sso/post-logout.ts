// POST /api/sso/logout: the end-session endpoint taking a form (an app's, or the sign-out question's).
import { logout } from '../../shared/auth/logout';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { pageApi } from '../../shared/wiring/page-api';
import { refreshTokenRepository } from '../../shared/wiring/refresh-token-repository';
import { sessionRepository } from '../../shared/wiring/session-repository';
import { tokenVerifier } from '../../shared/wiring/token-verifier';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = pageApi(serviceRoute('post-logout'), (request) =>
  logout(request, {
    clients: clientRepository(),
    sessions: sessionRepository(),
    users: userRepository(),
    refreshTokens: refreshTokenRepository(),
    verifier: tokenVerifier(),
  }),
);
