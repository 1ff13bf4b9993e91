// GET /api/sso/authorize: checks an authorization request, answers it from a live sign-on session, or
// shows the sign-in page.
import { startSignIn } from '../../shared/auth/authorization-request';
import { serviceRoute } from '../../shared/service-routes';
import { authorizationCodeRepository } from '../../shared/wiring/authorization-code-repository';
import { authorizationRequestRepository } from '../../shared/wiring/authorization-request-repository';
import { clientRepository } from '../../shared/wiring/client-repository';
import { pageApi } from '../../shared/wiring/page-api';
import { recordRepository } from '../../shared/wiring/record-repository';
import { sessionRepository } from '../../shared/wiring/session-repository';
import { tokenVerifier } from '../../shared/wiring/token-verifier';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = pageApi(serviceRoute('get-authorize'), (request) =>
  startSignIn(request, {
    clients: clientRepository(),
    verifier: tokenVerifier(),
    authorizationRequests: authorizationRequestRepository(),
    sessions: sessionRepository(),
    users: userRepository(),
    records: recordRepository(),
    codes: authorizationCodeRepository(),
  }),
);
