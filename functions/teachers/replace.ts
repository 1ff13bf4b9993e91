// PUT /api/teachers/{teacher_id}
import { api } from '../../shared/http/api';
import { replaceRecord } from '../../shared/records/write-records';

export const handler = api('replace-teachers', (request) => replaceRecord('teachers', request));
