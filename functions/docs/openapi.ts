// GET /api/openapi.json: the API description, for this deployment's base address.
import { openApiDocument } from '../../shared/openapi/document';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('get-openapi'), async ({ config }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: openApiDocument(config.publicBaseUrl),
}));
