// GET /api/assessment_results
import { recordRoute } from '../../shared/record-routes';
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('list-assessment_results'), (request) =>
  listRecords('assessment_results', request, recordRepository()),
);
