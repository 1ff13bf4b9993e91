// GET /api/system: the tenant, the service's version and health, and the count of each group.
import packageJson from '../../package.json' with { type: 'json' };
import { readableCounts } from '../../shared/auth/school-scope';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(serviceRoute('get-system'), async ({ config, auth }) => ({
  body: {
    tenant_id: config.tenantId,
    tenant_name: config.tenantName,
    service: packageJson.name,
    version: packageJson.version,
    status: 'ok',
    server_time: new Date().toISOString(),
    counts: await readableCounts(auth?.schools, recordRepository()),
  },
}));
