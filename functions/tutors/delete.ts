// DELETE /api/tutors/{tutor_id}
import { api } from '../../shared/http/api';
import { deleteRecord } from '../../shared/records/write-records';

export const handler = api('delete-tutors', (request) => deleteRecord('tutors', request));
