// GET /api/assessment_results/deleted
import { recordRoute } from '../../shared/record-routes';
import { listDeleted } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('list-deleted-assessment_results'), (request) =>
  listDeleted('assessment_results', request, recordRepository()),
);
