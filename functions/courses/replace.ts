// PUT /api/courses/{course_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { courseInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-courses'), (request) =>
  replaceRecord('courses', courseInsertRequest(), request, recordWriter()),
);
