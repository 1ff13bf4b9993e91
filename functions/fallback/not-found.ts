// Every request no route matches (API Gateway's $default route): 404, or 405 where the path exists, as
// problem JSON; under the OneRoster bindings' paths, as their imsx_StatusInfo, as their routes answer.
import { MethodNotAllowedError, NotFoundError } from '../../shared/http/errors';
import { ONEROSTER_PATH } from '../../shared/oneroster/paths';
import { clientErrorInfo } from '../../shared/oneroster/status-info';
import { matchRoute } from '../../shared/routes';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('fallback'), async ({ event }) => {
  const method = event.requestContext.http.method;
  const match = matchRoute(method, event.rawPath);
  const refusal =
    !match.route && match.allowed.length > 0
      ? new MethodNotAllowedError(method, match.allowed)
      : new NotFoundError(`No operation at ${event.rawPath}.`);
  if (!event.rawPath.startsWith(ONEROSTER_PATH)) throw refusal;
  return clientErrorInfo(refusal);
});
