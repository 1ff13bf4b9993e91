// PUT /api/entities/{entity_id}
import { replaceRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('replace-entities', (request) =>
  replaceRecord('entities', request, recordWriter()),
);
