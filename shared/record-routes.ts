// The record groups' routes, six or seven a group, built from each group's description
// (shared/domain/groups.ts): list, get, deletions, create, replace, delete, and a document group's
// upload. Kept apart from the service's other rows (service-routes.ts) so that a record's handler bundles
// only these, with the record factories of shared/wiring.
import { keys } from './data/keys';
import type { StudentWork } from './data/listings';
import {
  groups,
  isDocumentGroup,
  isRoleGroup,
  type RecordGroup,
  readScope,
  recordGroups,
  writeScope,
} from './domain/groups';
import { LIMITS } from './domain/limits';
import { partitionsOf } from './record-partitions';
import { filterParameters } from './records/list-filters';
import { type Route, type RouteAudit, rowOf } from './route';
import { readRow, writeRow } from './route-rows';

const paging = ['page', 'items_per_page', 'cursor'] as const;
const jsonBody = { type: 'json', maxBytes: LIMITS.bodyBytes } as const;

const groupRoutes = <G extends RecordGroup>(group: G) => {
  const { idField: idParam } = groups[group];
  /** A person group's requests are audited, naming the record in the path where there is one. */
  const audit = (named: readonly string[]): { audit?: RouteAudit } => {
    const person: RecordGroup = group;
    return person === 'entities' || isRoleGroup(person) ? { audit: { group: person, named } } : {};
  };
  /** A read of the group, with its read scope. */
  const reading = <const Id extends string>(r: {
    id: Id;
    path: string;
    operation: string;
    named: readonly string[];
    query: readonly string[];
    reads: readonly string[];
  }) =>
    readRow({
      id: r.id,
      path: r.path,
      handler: `${group}/${r.operation}`,
      scope: readScope(group),
      ...audit(r.named),
      query: r.query,
      reads: r.reads,
    });
  /** A write of the group, with its write scope. */
  const writing = <const Id extends string>(w: {
    id: Id;
    method: 'POST' | 'PUT' | 'DELETE';
    path: string;
    operation: string;
    named: readonly string[];
    partitions: { reads: readonly string[]; writes: readonly string[] };
    body?: true;
    idempotencyKey?: true;
  }) =>
    writeRow({
      id: w.id,
      method: w.method,
      path: w.path,
      handler: `${group}/${w.operation}`,
      scope: writeScope(group),
      ...audit(w.named),
      ...(w.body ? { body: jsonBody } : {}),
      ...(w.idempotencyKey ? { idempotencyKey: true } : {}),
      ...w.partitions,
    });
  const all = `/api/${group}`;
  const one = `/api/${group}/{${idParam}}`;
  const partitions = partitionsOf(group);
  return [
    reading({
      id: `list-${group}`,
      path: all,
      operation: 'list',
      named: [],
      query: [...paging, 'updated_since', ...filterParameters(group), 'fields'],
      reads: partitions.list,
    }),
    reading({
      id: `get-${group}`,
      path: one,
      operation: 'get',
      named: [idParam],
      query: ['fields'],
      reads: partitions.get,
    }),
    reading({
      id: `list-deleted-${group}`,
      path: `${all}/deleted`,
      operation: 'list-deleted',
      named: [],
      query: ['since', 'items_per_page', 'cursor'],
      reads: partitions.deleted,
    }),
    writing({
      id: `create-${group}`,
      method: 'POST',
      path: all,
      operation: 'create',
      named: [],
      partitions: partitions.create,
      body: true,
      idempotencyKey: true,
    }),
    writing({
      id: `replace-${group}`,
      method: 'PUT',
      path: one,
      operation: 'replace',
      named: [idParam],
      partitions: partitions.replace,
      body: true,
    }),
    writing({
      id: `delete-${group}`,
      method: 'DELETE',
      path: one,
      operation: 'delete',
      named: [idParam],
      partitions: partitions.remove,
    }),
    ...(isDocumentGroup(group)
      ? [
          writing({
            id: `add-document-${group}`,
            method: 'POST',
            path: `${one}/documents`,
            operation: 'add-document',
            named: [idParam],
            partitions: partitions.addDocument,
            body: true,
            idempotencyKey: true,
          }),
        ]
      : []),
  ];
};

/**
 * A bulk entry (shared/records/bulk-entry.ts): records of a group for many students of a class, made or
 * replaced in one transaction, found by their natural key, and audited as one event naming every student.
 * It reads what its path names (`reads`) besides what a create reads.
 */
const bulkRoute = <const Id extends string>(
  group: StudentWork,
  r: { id: Id; path: string; operation: string; reads: readonly string[] },
) => {
  const { create } = partitionsOf(group);
  const idempotency = keys.idempotencyPartition(group);
  const without = (partitions: readonly string[]) => partitions.filter((p) => p !== idempotency);
  return writeRow({
    id: r.id,
    method: 'PUT',
    path: r.path,
    handler: `${group}/${r.operation}`,
    scope: writeScope(group),
    audit: { group: 'students', named: [] },
    body: jsonBody,
    reads: [
      ...new Set([
        ...without(create.reads),
        ...r.reads,
        keys.naturalKeyPartition(group),
        keys.recordPartition(group),
        keys.recordPartition('students'),
      ]),
    ],
    writes: without(create.writes),
  });
};

const bulkRoutes = () => [
  // A class's register for a date: every student's attendance.
  bulkRoute('attendance', {
    id: 'put-class-register',
    path: '/api/classes/{class_id}/attendance/{date}',
    operation: 'register',
    reads: [keys.recordPartition('classes')],
  }),
  // A line item's results: every student's, in its class.
  bulkRoute('results', {
    id: 'put-line-item-results',
    path: '/api/line_items/{line_item_id}/results',
    operation: 'grade',
    reads: [keys.recordPartition('line_items')],
  }),
];

/**
 * A student's grades per class and grading period, from the results the reader may read: the student's
 * record and enrollment list, their classes' ranges of the results' listing, and what those results name.
 * Audited as a read of the student.
 */
const gradesRoute = () => {
  const students = partitionsOf('students');
  const results = partitionsOf('results');
  return readRow({
    id: 'get-student-grades',
    path: '/api/students/{student_id}/grades',
    handler: 'results/student-grades',
    scope: readScope('results'),
    audit: { group: 'students', named: ['student_id'] },
    query: [],
    reads: [
      ...new Set([
        ...students.get,
        ...results.list.filter((p) => p !== keys.counterPartition && p !== keys.changePartition('results')),
        keys.recordPartition('entities'),
        keys.listingPartition('results'),
        ...(['line_items', 'score_scales', 'categories'] as const).map(keys.recordPartition),
      ]),
    ],
  });
};

/**
 * A line item's score distribution, from the tally it keeps: the line item (and whether the reader may
 * read it), the reader's entity (whether they teach its class) and its score scale.
 */
const distributionRoute = () =>
  readRow({
    id: 'get-line-item-distribution',
    path: '/api/line_items/{line_item_id}/distribution',
    handler: 'results/distribution',
    scope: readScope('results'),
    query: [],
    reads: [
      ...new Set([
        ...partitionsOf('line_items').get,
        keys.recordPartition('entities'),
        keys.recordPartition('score_scales'),
      ]),
    ],
  });

/**
 * A student's attendance summary, from the tally they keep: the student (and whether the reader may read
 * them), what the reader reads of their attendance (their entity, their tutor records), and the classes'
 * terms and schools. Audited as a read of the student.
 */
const attendanceSummaryRoute = () =>
  readRow({
    id: 'get-student-attendance-summary',
    path: '/api/students/{student_id}/attendance_summary',
    handler: 'attendance/summary',
    scope: readScope('attendance'),
    audit: { group: 'students', named: ['student_id'] },
    query: [],
    reads: [
      ...new Set([
        ...partitionsOf('students').get,
        ...(['entities', 'tutors', 'classes'] as const).map(keys.recordPartition),
      ]),
    ],
  });

/** The routes beside each group's own: the bulk entries', a student's grades and the gradebook's summaries. */
const studentWorkRoutes = () => [
  ...bulkRoutes(),
  gradesRoute(),
  distributionRoute(),
  attendanceSummaryRoute(),
];

/** Every record group's routes, and those beside them. */
export const recordRoutes = () => [...recordGroups.flatMap(groupRoutes), ...studentWorkRoutes()];

/** The ids of the record groups' routes. */
export type RecordRouteId = ReturnType<typeof recordRoutes>[number]['id'];

/**
 * The row of a record group's route, for its handler's factory. Only the rows it may be among are made:
 * a handler builds its row as it is imported, in every cold start, and a group's rows derive their
 * partitions from every group's description (record-partitions.ts). A group's own routes end in its name.
 */
export const recordRoute = (id: RecordRouteId): Route => {
  const group = recordGroups.find((g) => id.endsWith(`-${g}`));
  return (group && groupRoutes(group).find((r) => r.id === id)) || rowOf(studentWorkRoutes(), id);
};
