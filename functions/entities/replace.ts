// PUT /api/entities/{entity_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { entityInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-entities'), (request) =>
  replaceRecord('entities', entityInsertRequest(), request, recordWriter()),
);
