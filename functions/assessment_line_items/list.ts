// GET /api/assessment_line_items
import { recordRoute } from '../../shared/record-routes';
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('list-assessment_line_items'), (request) =>
  listRecords('assessment_line_items', request, recordRepository()),
);
