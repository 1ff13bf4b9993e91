// GET /api/admin/clients/{client_id}/secrets
import { listSecretsRequest } from '../../shared/clients/admin-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { clientRepository } from '../../shared/wiring/client-repository';

export const handler = api(serviceRoute('list-client-secrets'), (request) =>
  listSecretsRequest(request, clientRepository()),
);
