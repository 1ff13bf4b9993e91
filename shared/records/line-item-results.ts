// A line item's results (`PUT /api/line_items/{line_item_id}/results`, docs/api.md): each student's
// result for it, graded together (bulk-entry.ts), in the line item's class.
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import { type LineItemResultsRequest, lineItemResultsRequest } from '../schemas/requests';
import { enterForStudents } from './bulk-entry';
import { notFound } from './missing-record';
import { recordId } from './record-id';
import type { RecordWriter } from './record-writer';

export async function putLineItemResults(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const lineItemId = recordId('line_items', request);
  const { results } = validateBody(lineItemResultsRequest(), request.body, [
    'results',
    'student_id',
  ]) as LineItemResultsRequest;
  // The line item is the path's resource: one that is not there is 404, as for any record.
  const classId = (await writer.records.getMany('line_items', [lineItemId])).get(lineItemId)?.class_id;
  if (classId === undefined) throw notFound('line_items', lineItemId);
  const written = await enterForStudents(request, writer, 'results', {
    field: 'results',
    classId,
    inputs: results.map((result) => ({ class_id: classId, line_item_id: lineItemId, ...result })),
  });
  return {
    body: { line_item_id: lineItemId, class_id: classId, results: written.records },
    audit: written.audit,
  };
}
