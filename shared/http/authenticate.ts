// Finds the bearer token of a request (Authorization header or the access_token query parameter,
// RFC 6750 sections 2.1 and 2.3), verifies it and checks the route's scope.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AccessToken } from '../auth/access-token';
import type { TokenVerifier } from '../auth/tokens';
import type { RouteAuth } from '../route';
import { BadRequestError, ForbiddenError, UnauthorizedError } from './errors';
import { header, type QueryParams } from './request';

export function bearerToken(event: APIGatewayProxyEventV2, query: QueryParams): string | undefined {
  const authorization = header(event, 'authorization');
  const fromQuery = query.get('access_token');
  if (authorization !== undefined && fromQuery !== undefined) {
    throw new BadRequestError('Send the access token in the Authorization header or the query, not both.', [
      { name: 'access_token', in: 'query', reason: 'a token is also in the Authorization header' },
    ]);
  }
  if (fromQuery !== undefined) return fromQuery;
  if (authorization === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) {
    const bearer = /^Bearer\b/i.test(authorization);
    throw new UnauthorizedError(
      bearer
        ? 'The access token is not valid: it is malformed.'
        : 'Send the access token as Authorization: Bearer.',
      bearer,
    );
  }
  return match[1];
}

export async function authenticate(
  auth: RouteAuth,
  token: string | undefined,
  verifier: TokenVerifier,
): Promise<AccessToken | undefined> {
  if (auth.kind === 'public' || auth.kind === 'client') return undefined;
  if (token === undefined) throw new UnauthorizedError('This operation needs an access token.', false);
  const verified = await verifier.verify(token);
  if (auth.kind === 'scope' && !verified.scopes.some((s) => s === auth.scope || s === auth.or)) {
    throw new ForbiddenError(auth.scope, auth.or);
  }
  return verified;
}
