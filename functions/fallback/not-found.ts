// Every request no route matches (API Gateway's $default route): 404, or 405 where the path exists.
import { api } from '../../shared/http/api';
import { MethodNotAllowedError, NotFoundError } from '../../shared/http/errors';
import { matchRoute } from '../../shared/routes';

export const handler = api('fallback', async ({ event }) => {
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  if (!match.route && match.allowed.length > 0) {
    throw new MethodNotAllowedError(event.requestContext.http.method, match.allowed);
  }
  throw new NotFoundError(`No operation at ${event.rawPath}.`);
});
