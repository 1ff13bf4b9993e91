// GET /api/admin/clients
import { listClientsRequest } from '../../shared/clients/admin-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';

export const handler = api(serviceRoute('list-clients'), () => listClientsRequest(clientRepository()));
