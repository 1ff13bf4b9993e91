// PUT /api/score_scales/{score_scale_id}
import { replaceRecord } from '../../shared/records/write-records';
import { scoreScaleInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-score_scales', (request) =>
  replaceRecord('score_scales', scoreScaleInsertRequest(), request, recordWriter()),
);
