// DELETE /api/assessment_results/{assessment_result_id}
import { recordRoute } from '../../shared/record-routes';
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('delete-assessment_results'), (request) =>
  deleteRecord('assessment_results', request, recordWriter()),
);
