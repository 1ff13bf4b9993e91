// GET /api/assessment_results/{assessment_result_id}
import { recordRoute } from '../../shared/record-routes';
import { getRecord } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-assessment_results'), (request) =>
  getRecord('assessment_results', request, recordRepository()),
);
