// POST /api/sso/authorize: the sign-in form (and its second factor); on success, a sign-on session and
// back to the client with a code.
import { signIn } from '../../shared/auth/sign-in';
import { serviceRoute } from '../../shared/service-routes';
import { authorizationCodeRepository } from '../../shared/wiring/authorization-code-repository';
import { authorizationRequestRepository } from '../../shared/wiring/authorization-request-repository';
import { pageApi } from '../../shared/wiring/page-api';
import { recordRepository } from '../../shared/wiring/record-repository';
import { sessionRepository } from '../../shared/wiring/session-repository';
import { signInThrottle } from '../../shared/wiring/sign-in-throttle';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = pageApi(serviceRoute('post-authorize'), (request) =>
  signIn(request, {
    authorizationRequests: authorizationRequestRepository(),
    signInThrottle: signInThrottle(),
    users: userRepository(),
    records: recordRepository(),
    codes: authorizationCodeRepository(),
    sessions: sessionRepository(),
  }),
);
