// GET /api/sso/authorize: checks an authorization request and shows the sign-in page.
import { startSignIn } from '../../shared/auth/authorization-request';
import { authorizationRequestRepository } from '../../shared/wiring/authorization-request-repository';
import { clientRepository } from '../../shared/wiring/client-repository';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi('get-authorize', (request) =>
  startSignIn(request, {
    clients: clientRepository(),
    authorizationRequests: authorizationRequestRepository(),
  }),
);
