// PUT /api/tutors/{tutor_id}
import { api } from '../../shared/http/api';
import { replaceRecord } from '../../shared/records/write-records';

export const handler = api('replace-tutors', (request) => replaceRecord('tutors', request));
