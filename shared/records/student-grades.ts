// A student's grades (`GET /api/students/{student_id}/grades`, docs/api.md): per class and grading
// period, the weighted average of the results the reader may read (shared/domain/grade-average.ts has
// the rule). Read from the student's classes' ranges of the results' listing and the few records those
// results name: a request costs one student's results, whatever the school's size.
import { canRead, readScope, studentOf } from '../auth/reach';
import { inScope } from '../data/read-scope';
import type { RecordRepository } from '../data/record-repository';
import { periodGrades } from '../domain/grade-average';
import type { ApiRequest, ApiResponse } from '../exchange';
import { notFound } from './missing-record';
import { recordId } from './record-id';

const unique = (ids: readonly (string | null)[]) => [
  ...new Set(ids.filter((id): id is string => id !== null)),
];

export async function studentGrades(request: ApiRequest, records: RecordRepository): Promise<ApiResponse> {
  const studentId = recordId('students', request);
  // A student the reader may not read is not there for them, as on a get.
  if (!(await canRead(request.auth, 'students', studentId, records))) throw notFound('students', studentId);
  const student = await records.get('students', studentId);
  if (!student) throw notFound('students', studentId);
  const entityId = student.record.entity_id;
  const [lists, scope] = await Promise.all([
    records.enrollmentLists('entities', [entityId]),
    readScope(request.auth, 'results', records),
  ]);
  const classIds = studentOf(lists.get(entityId)?.entries ?? []);
  const entries = await records.studentWorkOfClasses(
    'results',
    classIds.map((classId) => ({ classId, studentId })),
  );
  const results = [
    ...(
      await records.getMany(
        'results',
        entries.map((e) => e.recordId).filter((id) => inScope(scope, id)),
      )
    ).values(),
  ];
  const lineItems = await records.getMany('line_items', unique(results.map((r) => r.line_item_id)));
  const [scales, categories] = await Promise.all([
    records.getMany('score_scales', unique([...lineItems.values()].map((i) => i.score_scale_id))),
    records.getMany('categories', unique([...lineItems.values()].map((i) => i.category_id))),
  ]);
  return {
    body: { student_id: studentId, grades: periodGrades(results, lineItems, scales, categories) },
    audit: { recordIds: [studentId], entityIds: [entityId] },
  };
}
