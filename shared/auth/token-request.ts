// What the token and revocation endpoints share (RFC 6749 sections 2.3 and 3.2, RFC 7009 section 2.1):
// reading a form or JSON body, authenticating the client, and checking a grant's parameters. Every
// failure is an RFC 6749 error.
import type * as z from 'zod/mini';
import {
  type ClientRepository,
  isLiveSecret,
  isPublicClient,
  type OAuthClient,
} from '../data/client-repository';
import { isScope, type Scope } from '../domain/groups';
import type { ApiRequest } from '../exchange';
import { OAuthError } from '../http/errors';
import { quote } from '../http/quote';
import { bodyText, header } from '../http/request';
import { verifySecret } from './secret-hash';

export type Params = ReadonlyMap<string, string>;

/**
 * The request's parameters, from a form or a JSON object. A parameter given more than once is refused;
 * one given without a value counts as not given (RFC 6749 section 3.2).
 */
export function readParams({ event, body }: ApiRequest): Params {
  const params = new Map<string, string>();
  const add = (name: string, value: string) => {
    if (value !== '') params.set(name, value);
  };
  if (body !== null && typeof body === 'object') {
    if (Array.isArray(body)) throw new OAuthError('invalid_request', 'The JSON body must be an object.');
    for (const [name, value] of Object.entries(body)) {
      if (typeof value !== 'string')
        throw new OAuthError('invalid_request', `The parameter ${quote(name)} must be a string.`);
      add(name, value);
    }
    return params;
  }
  const text = bodyText(event);
  if (text.length === 0) return params;
  const contentType = header(event, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new OAuthError(
      'invalid_request',
      'Send the request as application/x-www-form-urlencoded or application/json.',
    );
  }
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (seen.has(name))
      throw new OAuthError('invalid_request', `The parameter ${quote(name)} is given more than once.`);
    seen.add(name);
    add(name, value);
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

/** The client id and, unless the client presents itself as public, its secret. */
function presentedCredentials(request: ApiRequest, params: Params): { id: string; secret?: string } {
  const authorization = header(request.event, 'authorization');
  if (authorization !== undefined && params.has('client_secret')) {
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
  if (id === undefined) throw new OAuthError('invalid_client', 'Client authentication is required.');
  const secret = params.get('client_secret');
  return secret === undefined ? { id } : { id, secret };
}

/**
 * Whether `secret` is one of the client's: a secret made by the administration API names its item
 * (`<secret_id>.<random>`) and must not have expired; an older client's one secret is held on the client.
 * An unknown client or secret is checked against a decoy hash, so that a guess costs the same time.
 */
async function secretMatches(
  clients: ClientRepository,
  client: OAuthClient | undefined,
  secret: string,
  now: Date,
): Promise<{ matches: boolean; secretId?: string }> {
  const dot = secret.indexOf('.');
  if (dot < 0) return { matches: await verifySecret(secret, client?.secret_hash) };
  const secretId = secret.slice(0, dot);
  const item = client ? await clients.secret(client.client_id, secretId) : undefined;
  const matches =
    (await verifySecret(secret, item?.secret_hash)) && item !== undefined && isLiveSecret(item, now);
  return matches ? { matches, secretId } : { matches };
}

/**
 * The active client the request comes from. A confidential client proves itself with one of its secrets,
 * whose use is noted; a public one (none registered) sends its client_id alone, and is refused if it sends
 * a secret.
 */
export async function authenticateClient(
  request: ApiRequest,
  params: Params,
  clients: ClientRepository,
  now = new Date(),
): Promise<OAuthClient> {
  const credentials = presentedCredentials(request, params);
  const client = await clients.get(credentials.id);
  const proof =
    credentials.secret === undefined
      ? { matches: client !== undefined && isPublicClient(client) }
      : await secretMatches(clients, client, credentials.secret, now);
  if (!client || !proof.matches || client.status !== 'active') {
    throw new OAuthError('invalid_client', 'Client authentication failed.', 401, [
      { name: 'SignInFailures', value: 1 },
    ]);
  }
  if (proof.secretId !== undefined)
    await clients.secretUsed(client.client_id, proof.secretId, now.toISOString());
  return client;
}

/** The parameters as `schema` takes them; the first thing wrong is named in an invalid_request error. */
export function parseParams<T extends z.ZodMiniType>(schema: T, params: Params): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const name = issue?.path.join('.') ?? '';
  const given = name !== '' && params.has(name);
  throw new OAuthError(
    'invalid_request',
    given ? `The parameter ${name} is not valid.` : `The parameter ${name} is required.`,
  );
}

/**
 * The scopes a request is granted: all of `allowed` when it names none, else exactly those it names,
 * each of which must be in `allowed` (invalid_scope otherwise).
 */
export function requestedScopes(requested: string | undefined, allowed: readonly Scope[]): Scope[] {
  if (requested === undefined || requested.trim() === '') return [...allowed];
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  const refused = asked.filter((scope) => !isScope(scope) || !allowed.includes(scope));
  if (refused.length > 0)
    throw new OAuthError('invalid_scope', `These scopes cannot be granted: ${refused.map(quote).join(' ')}.`);
  return asked as Scope[];
}
