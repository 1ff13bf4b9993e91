// GET /api/score_scales/deleted
import { recordRoute } from '../../shared/record-routes';
import { listDeleted } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('list-deleted-score_scales'), (request) =>
  listDeleted('score_scales', request, recordRepository()),
);
