// GET /api/openapi.json: the API description, for this deployment's base address.
import { api } from '../../shared/http/api';
import { openApiDocument } from '../../shared/openapi/document';

export const handler = api('get-openapi', async ({ services }) => ({
  headers: { 'cache-control': 'public, max-age=300' },
  body: openApiDocument(services.config.publicBaseUrl),
}));
