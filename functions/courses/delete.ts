// DELETE /api/courses/{course_id}
import { recordRoute } from '../../shared/record-routes';
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('delete-courses'), (request) =>
  deleteRecord('courses', request, recordWriter()),
);
