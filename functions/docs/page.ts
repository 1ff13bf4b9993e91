// GET /api/docs: the docs page (Swagger UI over /api/openapi.json).
import { docsPage } from '../../shared/docs/swagger-ui';
import { serviceRoute } from '../../shared/service-routes';
import { publicApi } from '../../shared/wiring/public-api';

export const handler = publicApi(serviceRoute('get-docs'), async () => docsPage());
