// POST /api/enrollments
import { createRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('create-enrollments', (request) =>
  createRecord('enrollments', request, recordWriter()),
);
