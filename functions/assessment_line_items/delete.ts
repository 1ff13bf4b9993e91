// DELETE /api/assessment_line_items/{assessment_line_item_id}
import { recordRoute } from '../../shared/record-routes';
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('delete-assessment_line_items'), (request) =>
  deleteRecord('assessment_line_items', request, recordWriter()),
);
