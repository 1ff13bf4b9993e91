// DELETE /api/admin/clients/{client_id}: disables the client.
import { deleteClientRequest } from '../../shared/clients/admin-writes';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(serviceRoute('delete-client'), (request) =>
  deleteClientRequest(request, clientRepository()),
);
