// DELETE /api/entities/{entity_id}
import { deleteRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('delete-entities', (request) => deleteRecord('entities', request, recordWriter()));
