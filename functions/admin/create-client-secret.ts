// POST /api/admin/clients/{client_id}/secrets
import { createSecretRequest } from '../../shared/clients/admin-writes';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(serviceRoute('create-client-secret'), (request) =>
  createSecretRequest(request, clientRepository()),
);
