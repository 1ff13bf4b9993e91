// GET /api/admin/clients/{client_id}/usage
import { getUsageRequest } from '../../shared/clients/admin-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';
import { rateRepository } from '../../shared/wiring/rate-repository';

export const handler = api(serviceRoute('get-client-usage'), (request) =>
  getUsageRequest(request, clientRepository(), rateRepository()),
);
