// DELETE /api/admin/clients/{client_id}: disables the client.
import { deleteClientRequest } from '../../shared/clients/admin-writes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('delete-client', (request) =>
  deleteClientRequest(request, clientRepository()),
);
