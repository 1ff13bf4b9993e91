// POST /api/sso/token (RFC 6749 sections 3.2 and 5): authenticates the client and hands the request to
// the grant it asks for.
import type { ApiRequest, ApiResponse } from '../http/api';
import { OAuthError } from '../http/errors';
import { clientCredentialsGrant } from './grants/client-credentials';
import type { Grant } from './grants/grant';
import { authenticateClient, readParams } from './token-request';

export const GRANT_TYPES = ['client_credentials'] as const;
type SupportedGrant = (typeof GRANT_TYPES)[number];

const grants: Record<SupportedGrant, Grant> = {
  client_credentials: clientCredentialsGrant,
};

const isSupported = (value: string): value is SupportedGrant =>
  (GRANT_TYPES as readonly string[]).includes(value);

export async function issueToken(request: ApiRequest): Promise<ApiResponse> {
  const params = readParams(request);
  const grantType = params.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  const client = await authenticateClient(request, params);
  if (!isSupported(grantType)) {
    throw new OAuthError('unsupported_grant_type', `The grant type ${grantType} is not supported.`);
  }
  const body = await grants[grantType]({ client, params, services: request.services });
  return { headers: { pragma: 'no-cache' }, body };
}
