// PUT /api/score_scales/{score_scale_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { scoreScaleInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-score_scales'), (request) =>
  replaceRecord('score_scales', scoreScaleInsertRequest(), request, recordWriter()),
);
