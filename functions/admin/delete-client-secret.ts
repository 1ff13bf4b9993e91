// DELETE /api/admin/clients/{client_id}/secrets/{secret_id}
import { deleteSecretRequest } from '../../shared/clients/admin-writes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('delete-client-secret', (request) =>
  deleteSecretRequest(request, clientRepository()),
);
