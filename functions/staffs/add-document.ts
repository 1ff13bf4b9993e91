// POST /api/staffs/{staff_id}/documents
import { api } from '../../shared/http/api';
import { addDocument } from '../../shared/records/write-records';

export const handler = api('add-document-staffs', (request) => addDocument('staffs', request));
