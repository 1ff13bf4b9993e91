// A line item's score distribution (`GET /api/line_items/{line_item_id}/distribution`, docs/api.md):
// its results by status, by score and by letter, and as percentages of its range in tenths, from the
// tally the line item keeps (shared/data/tallies.ts): the line item's own item, whatever the class's size.
// Read by those who read every result of the line item: its class's teachers, administrators and staff,
// and clients; to a student or guardian, who reads only their own results, it is not there (404), as
// records out of reach are not.
import { canRead, classesTaught } from '../auth/reach';
import { reachOf } from '../auth/roles';
import { entriesOf } from '../data/enrollment-entries';
import { internal, toRecord } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { countsOf } from '../data/tallies';
import { RecordNotFoundError } from '../domain/errors';
import { percentOf } from '../domain/grade-average';
import { resultStatuses } from '../domain/gradebook';
import type { ApiRequest, ApiResponse } from '../exchange';
import { notFound } from './missing-record';
import { recordId } from './record-id';

/** How many bands of percentages the distribution has: tenths, the last holding 100. */
const BANDS = 10;

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** Whether the request's person reads every result of the class: all results, or those of a class they teach. */
async function readsWholeClass(request: ApiRequest, classId: string, records: RecordRepository) {
  const person = request.auth?.person;
  if (!person) return true;
  const reaches = reachOf(person.roles, 'results');
  if (reaches.includes('all')) return true;
  if (!reaches.includes('taught')) return false;
  const entity = await records.getItem('entities', person.entityId);
  return classesTaught(entriesOf(entity?.[internal.enrollments])).includes(classId);
}

export async function lineItemDistribution(
  request: ApiRequest,
  records: RecordRepository,
): Promise<ApiResponse> {
  const lineItemId = recordId('line_items', request);
  if (!(await canRead(request.auth, 'line_items', lineItemId, records)))
    throw notFound('line_items', lineItemId);
  // The line item keeps its results' tally.
  const tally = await records.getItem('line_items', lineItemId);
  if (!tally) throw notFound('line_items', lineItemId);
  const item = toRecord('line_items', tally);
  if (!(await readsWholeClass(request, item.class_id, records))) {
    throw new RecordNotFoundError(
      `Line item ${lineItemId} has no distribution you may read: it is read by those who read all its results, its class's teachers, administrators, staff and clients.`,
    );
  }
  const scale = item.score_scale_id
    ? (await records.getMany('score_scales', [item.score_scale_id])).get(item.score_scale_id)
    : undefined;
  const statuses = countsOf(tally, 'status');
  const scores = [...countsOf(tally, 'score')]
    .map(([score, count]) => ({ score: Number(score), count }))
    .sort((a, b) => a.score - b.score);
  const letters = countsOf(tally, 'text');
  const order = scale?.type === 'letter' ? scale.values : [];
  const textScores = [...letters]
    .map(([text_score, count]) => ({ text_score, count }))
    .sort((a, b) => {
      const [i, j] = [order.indexOf(a.text_score), order.indexOf(b.text_score)];
      return i !== j ? (i < 0 ? 1 : j < 0 ? -1 : i - j) : a.text_score.localeCompare(b.text_score);
    });
  // A letter scale's results count by letter, any other's by score, as a student's grade counts them.
  const counted =
    scale?.type === 'letter'
      ? textScores.map(({ text_score, count }) => ({ result: { text_score, score: null }, count }))
      : scores.map(({ score, count }) => ({ result: { score, text_score: null }, count }));
  const bands = Array.from({ length: BANDS }, (_, i) => ({
    from: (i * 100) / BANDS,
    to: ((i + 1) * 100) / BANDS,
    count: 0,
  }));
  let total = 0;
  let sum = 0;
  for (const { result, count } of counted) {
    const percent = percentOf({ status: 'fully graded', ...result }, item, scale);
    if (percent === undefined) continue;
    total += count;
    sum += percent * count;
    (bands[Math.min(BANDS - 1, Math.floor(percent / (100 / BANDS)))] as { count: number }).count += count;
  }
  return {
    body: {
      line_item_id: lineItemId,
      class_id: item.class_id,
      results: [...statuses.values()].reduce((a, b) => a + b, 0),
      statuses: Object.fromEntries(resultStatuses.map((status) => [status, statuses.get(status) ?? 0])),
      scores,
      text_scores: textScores,
      percentages: { counted: total, average: total > 0 ? oneDecimal(sum / total) : null, bands },
    },
  };
}
