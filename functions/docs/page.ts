// GET /api/docs: the docs page (Swagger UI over /api/openapi.json).
import { docsPage } from '../../shared/docs/swagger-ui';
import { api } from '../../shared/http/api';

export const handler = api('get-docs', async () => docsPage());
