// The token endpoint's client_credentials grant (RFC 6749 sections 2.3, 4.4 and 5): reads a form or
// JSON body, authenticates the client by HTTP Basic or body credentials, narrows the scope and
// issues an access token. Every failure is an RFC 6749 error.
import { isScope, type Scope } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../http/api';
import { OAuthError } from '../http/errors';
import { bodyText, header } from '../http/request';
import { verifySecret } from './secret-hash';

export const GRANT_TYPES = ['client_credentials'] as const;
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

type Params = Map<string, string>;

function readParams({ event, body }: ApiRequest): Params {
  const text = bodyText(event);
  const params: Params = new Map();
  if (body !== null && typeof body === 'object') {
    if (Array.isArray(body)) throw new OAuthError('invalid_request', 'The JSON body must be an object.');
    for (const [name, value] of Object.entries(body)) {
      if (typeof value !== 'string')
        throw new OAuthError('invalid_request', `The parameter ${name} must be a string.`);
      params.set(name, value);
    }
    return params;
  }
  if (text.length === 0) return params;
  const contentType = header(event, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new OAuthError(
      'invalid_request',
      'Send the request as application/x-www-form-urlencoded or application/json.',
    );
  }
  for (const [name, value] of new URLSearchParams(text)) {
    if (params.has(name))
      throw new OAuthError('invalid_request', `The parameter ${name} is given more than once.`);
    params.set(name, value);
  }
  return params;
}

/** Decodes HTTP Basic credentials, whose parts are form-urlencoded first (RFC 6749 section 2.3.1). */
function basicCredentials(authorization: string): { id: string; secret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
  const formDecode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
    }
  };
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

function clientCredentialsOf(request: ApiRequest, params: Params): { id: string; secret: string } {
  const authorization = header(request.event, 'authorization');
  const inBody = params.has('client_id') || params.has('client_secret');
  if (authorization !== undefined && inBody && params.has('client_secret')) {
    throw new OAuthError(
      'invalid_request',
      'Authenticate the client one way: the Authorization header or the body.',
    );
  }
  if (authorization !== undefined) {
    const basic = basicCredentials(authorization);
    const bodyId = params.get('client_id');
    if (bodyId !== undefined && bodyId !== basic.id) {
      throw new OAuthError(
        'invalid_request',
        'client_id in the body does not match the Authorization header.',
      );
    }
    return basic;
  }
  const id = params.get('client_id');
  const secret = params.get('client_secret');
  if (!id || secret === undefined)
    throw new OAuthError('invalid_client', 'Client authentication is required.');
  return { id, secret };
}

function grantedScopes(requested: string | undefined, allowed: Scope[]): Scope[] {
  if (requested === undefined || requested.trim() === '') return allowed;
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  const refused = asked.filter((scope) => !isScope(scope) || !allowed.includes(scope));
  if (refused.length > 0)
    throw new OAuthError('invalid_scope', `The client may not ask for: ${refused.join(' ')}.`);
  return asked as Scope[];
}

export async function clientCredentialsGrant(request: ApiRequest): Promise<ApiResponse> {
  const params = readParams(request);
  const grantType = params.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  const credentials = clientCredentialsOf(request, params);
  const client = await request.services.clients.get(credentials.id);
  const verified = await verifySecret(credentials.secret, client?.secret_hash);
  if (!client || !verified || client.status !== 'active') {
    throw new OAuthError('invalid_client', 'Client authentication failed.');
  }
  if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
    throw new OAuthError('unsupported_grant_type', `The grant type ${grantType} is not supported.`);
  }
  const scopes = grantedScopes(params.get('scope'), client.scopes);
  const { token, expiresIn } = await request.services.tokenIssuer.issue({
    subject: client.client_id,
    clientId: client.client_id,
    scopes,
  });
  return {
    headers: { pragma: 'no-cache' },
    body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') },
  };
}
