// GET /api/line_items/{line_item_id}/distribution
import { recordRoute } from '../../shared/record-routes';
import { lineItemDistribution } from '../../shared/records/line-item-distribution';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-line-item-distribution'), (request) =>
  lineItemDistribution(request, recordRepository()),
);
