// Every request no route matches (API Gateway's $default route): 404, or 405 where the path exists.
import { MethodNotAllowedError, NotFoundError } from '../../shared/http/errors';
import { matchRoute } from '../../shared/routes';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('fallback'), async ({ event }) => {
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  if (!match.route && match.allowed.length > 0) {
    throw new MethodNotAllowedError(event.requestContext.http.method, match.allowed);
  }
  throw new NotFoundError(`No operation at ${event.rawPath}.`);
});
