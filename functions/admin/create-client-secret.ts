// POST /api/admin/clients/{client_id}/secrets
import { createSecretRequest } from '../../shared/clients/admin-writes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('create-client-secret', (request) =>
  createSecretRequest(request, clientRepository()),
);
