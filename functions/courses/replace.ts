// PUT /api/courses/{course_id}
import { replaceRecord } from '../../shared/records/write-records';
import { courseInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-courses', (request) =>
  replaceRecord('courses', courseInsertRequest(), request, recordWriter()),
);
