// POST /api/entities
import { api } from '../../shared/http/api';
import { createRecord } from '../../shared/records/write-records';

export const handler = api('create-entities', (request) => createRecord('entities', request));
