// GET /api/admin/clients
import { listClientsRequest } from '../../shared/clients/admin-reads';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';

export const handler = api('list-clients', () => listClientsRequest(clientRepository()));
