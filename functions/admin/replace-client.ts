// PUT /api/admin/clients/{client_id}
import { replaceClientRequest } from '../../shared/clients/admin-writes';
import { serviceRoute } from '../../shared/service-routes';
import { clientRepository } from '../../shared/wiring/client-repository';
import { recordRepository } from '../../shared/wiring/record-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(serviceRoute('replace-client'), (request) =>
  replaceClientRequest(request, clientRepository(), recordRepository()),
);
