// POST /api/sso/token: OAuth 2.0 token endpoint.
import { clientCredentialsGrant } from '../../shared/auth/client-credentials';
import { api } from '../../shared/http/api';

export const handler = api('create-token', clientCredentialsGrant);
