// POST /api/sso/token: OAuth 2.0 token endpoint.
import { issueToken } from '../../shared/auth/token-endpoint';
import { serviceRoute } from '../../shared/service-routes';
import { authorizationCodeRepository } from '../../shared/wiring/authorization-code-repository';
import { clientRepository } from '../../shared/wiring/client-repository';
import { publicApi } from '../../shared/wiring/public-api';
import { recordRepository } from '../../shared/wiring/record-repository';
import { refreshTokenRepository } from '../../shared/wiring/refresh-token-repository';
import { tokenIssuer } from '../../shared/wiring/token-issuer';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = publicApi(serviceRoute('create-token'), (request) =>
  issueToken(request, {
    clients: clientRepository(),
    codes: authorizationCodeRepository(),
    refreshTokens: refreshTokenRepository(),
    users: userRepository(),
    records: recordRepository(),
    tokenIssuer: tokenIssuer(),
  }),
);
