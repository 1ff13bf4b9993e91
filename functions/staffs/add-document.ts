// POST /api/staffs/{staff_id}/documents
import { addDocument } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('add-document-staffs', (request) =>
  addDocument('staffs', request, recordWriter()),
);
