// GET /api/admin/clients/{client_id}
import { getClientRequest } from '../../shared/clients/admin-reads';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';

export const handler = api('get-client', (request) => getClientRequest(request, clientRepository()));
