// PUT /api/tutors/{tutor_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { tutorInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-tutors'), (request) =>
  replaceRecord('tutors', tutorInsertRequest(), request, recordWriter()),
);
