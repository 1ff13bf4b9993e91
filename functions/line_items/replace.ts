// PUT /api/line_items/{line_item_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { lineItemInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-line_items'), (request) =>
  replaceRecord('line_items', lineItemInsertRequest(), request, recordWriter()),
);
