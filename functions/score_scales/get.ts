// GET /api/score_scales/{score_scale_id}
import { recordRoute } from '../../shared/record-routes';
import { getRecord } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-score_scales'), (request) =>
  getRecord('score_scales', request, recordRepository()),
);
