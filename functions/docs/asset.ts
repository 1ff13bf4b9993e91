// GET /api/docs/{asset}: a script or style sheet of the docs page.
import { docsAsset } from '../../shared/docs/swagger-ui';
import { NotFoundError } from '../../shared/http/errors';
import { header } from '../../shared/http/request';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('get-docs-asset'), async ({ event, path }) => {
  const asset = docsAsset(path.asset ?? '', header(event, 'accept-encoding'));
  if (!asset) throw new NotFoundError(`The docs page has no asset ${path.asset}.`);
  return asset;
});
