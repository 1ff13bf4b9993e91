// PUT /api/line_items/{line_item_id}/results
import { recordRoute } from '../../shared/record-routes';
import { putLineItemResults } from '../../shared/records/line-item-results';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('put-line-item-results'), (request) =>
  putLineItemResults(request, recordWriter()),
);
