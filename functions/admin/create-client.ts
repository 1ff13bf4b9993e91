// POST /api/admin/clients
import { createClientRequest } from '../../shared/clients/admin-writes';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { recordRepository } from '../../shared/wiring/record-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(serviceRoute('create-client'), (request) =>
  createClientRequest(request, clientRepository(), recordRepository()),
);
