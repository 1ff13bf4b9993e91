// GET /api/system: the tenant, the service's version and health, and the count of each group.
import packageJson from '../../package.json' with { type: 'json' };
import { api } from '../../shared/http/api';

export const handler = api('get-system', async ({ services }) => ({
  body: {
    tenant_id: services.config.tenantId,
    tenant_name: services.config.tenantName,
    service: packageJson.name,
    version: packageJson.version,
    status: 'ok',
    server_time: new Date().toISOString(),
    counts: await services.records.counts(),
  },
}));
