// PUT /api/assessment_results/{assessment_result_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { assessmentResultInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-assessment_results'), (request) =>
  replaceRecord('assessment_results', assessmentResultInsertRequest(), request, recordWriter()),
);
