// GET /api/assessment_line_items/{assessment_line_item_id}
import { recordRoute } from '../../shared/record-routes';
import { getRecord } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-assessment_line_items'), (request) =>
  getRecord('assessment_line_items', request, recordRepository()),
);
