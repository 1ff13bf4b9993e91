// GET /api/results
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-results', (request) => listRecords('results', request, recordRepository()));
