// PUT /api/assessment_line_items/{assessment_line_item_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { assessmentLineItemInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-assessment_line_items'), (request) =>
  replaceRecord('assessment_line_items', assessmentLineItemInsertRequest(), request, recordWriter()),
);
