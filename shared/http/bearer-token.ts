// Finds the bearer token of a request (Authorization header or the access_token query parameter,
// RFC 6750 sections 2.1 and 2.3), for the route's wiring to verify.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError, UnauthorizedError } from './errors';
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
