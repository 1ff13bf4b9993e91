// GET /api/tutors/{tutor_id}
import { api } from '../../shared/http/api';
import { getRecord } from '../../shared/records/read-records';

export const handler = api('get-tutors', (request) => getRecord('tutors', request));
