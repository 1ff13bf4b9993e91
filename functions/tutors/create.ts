// POST /api/tutors
import { api } from '../../shared/http/api';
import { createRecord } from '../../shared/records/write-records';

export const handler = api('create-tutors', (request) => createRecord('tutors', request));
