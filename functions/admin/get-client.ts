// GET /api/admin/clients/{client_id}
import { getClientRequest } from '../../shared/clients/admin-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';

export const handler = api(serviceRoute('get-client'), (request) =>
  getClientRequest(request, clientRepository()),
);
