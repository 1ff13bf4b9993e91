// The OneRoster 1.2 Gradebook binding's writes (gradebook-writes.ts) as rows of the route table, kept
// apart from its reads (routes.ts, which lists these too) so that a write's handler bundles only these
// rows: PUT and DELETE of a category, score scale, line item, result, assessment line item or assessment
// result, and the POST of a line item's results.
import { schoolHeldSources } from '../auth/school-scope';
import { keys } from '../data/keys';
import { oneRosterScopes, type RecordGroup } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { partitionsOf } from '../record-partitions';
import { row, rowOf } from '../route';
import { GRADEBOOK_PATH } from './paths';

const imsx = { kind: 'imsx' } as const;

/**
 * The route area (nested stack) of the binding's assessment line items and results: apart from the rest
 * of the Gradebook's, so that each stack keeps room to grow under CloudFormation's resource limit.
 */
export const ASSESSMENTS_AREA = 'oneroster-assessments';
const rec = (...groups: Parameters<typeof keys.recordPartition>[0][]) => groups.map(keys.recordPartition);

const createPost = { kind: 'scope', scope: oneRosterScopes.gradebookCreatePost } as const;
/**
 * The objects whose writes share their scopes and their area: the gradebook's, or the assessments', which
 * have scopes of their own and a stack of their own.
 */
const gradebookObjects = {
  put: { kind: 'scope', scope: oneRosterScopes.gradebookCreatePut },
  delete: { kind: 'scope', scope: oneRosterScopes.gradebookDelete },
  area: 'oneroster-gradebook',
} as const;
const assessmentObjects = {
  put: { kind: 'scope', scope: oneRosterScopes.assessmentCreatePut },
  delete: { kind: 'scope', scope: oneRosterScopes.assessmentDelete },
  area: ASSESSMENTS_AREA,
} as const;

/**
 * A Gradebook object's writes (gradebook-writes.ts): `PUT <path>/{sourcedId}`, a create or a replace, and
 * `DELETE <path>/{sourcedId}`, granted what the native group's create, replace and delete are (without an
 * Idempotency-Key: a PUT is idempotent; without what a teacher's writes read: of the people, only an
 * administrator holds the binding's scopes, and writes everywhere) and what the object's references are
 * found from (`reads`). Each checks a person's sign-in, as the native writes do.
 */
function gradebookWrites<const Single extends string>(
  name: string,
  single: Single,
  group: RecordGroup,
  reads: readonly string[],
  objects: typeof gradebookObjects | typeof assessmentObjects = gradebookObjects,
) {
  const { create, replace, remove, personWrites } = partitionsOf(group);
  // Neither what only a teacher's writes read nor the Idempotency-Key's item is granted.
  const unused = [keys.idempotencyPartition(group), ...personWrites];
  const both = (...partitions: (readonly string[])[]) => [
    ...new Set(partitions.flat().filter((p) => !unused.includes(p))),
  ];
  const write = {
    path: `${GRADEBOOK_PATH}/${name}/{sourcedId}`,
    query: [],
    access: 'write',
    checksSignIn: true,
    dialect: imsx,
  } as const;
  return [
    row({
      ...write,
      id: `put-oneroster-${single}`,
      method: 'PUT',
      handler: `${objects.area}/put-${single}`,
      auth: objects.put,
      body: { type: 'json', maxBytes: LIMITS.bodyBytes },
      reads: [...new Set([...both(create.reads, replace.reads), ...reads])],
      writes: both(create.writes, replace.writes),
    }),
    row({
      ...write,
      id: `delete-oneroster-${single}`,
      method: 'DELETE',
      handler: `${objects.area}/delete-${single}`,
      auth: objects.delete,
      reads: both(remove.reads),
      writes: both(remove.writes),
    }),
  ] as const;
}

/**
 * POST /lineItems/{lineItemSourcedId}/results: a line item's results, each student's made or replaced in
 * one transaction (shared/records/bulk-entry.ts), granted what the native bulk entry is, the line item
 * (and whether a client's schools hold it), and the users its results name; audited as one event naming
 * every student.
 */
const postResultsOfLineItem = () => {
  const { create, personWrites } = partitionsOf('results');
  const unused = [keys.idempotencyPartition('results'), ...personWrites];
  return row({
    id: 'post-oneroster-results-of-line-item',
    method: 'POST',
    path: `${GRADEBOOK_PATH}/lineItems/{sourcedId}/results`,
    handler: 'oneroster-gradebook/post-results-of-line-item',
    auth: createPost,
    audit: { group: 'students', named: [] },
    query: [],
    access: 'write',
    checksSignIn: true,
    body: { type: 'json', maxBytes: LIMITS.bodyBytes },
    dialect: imsx,
    reads: [
      ...new Set([
        ...create.reads.filter((p) => !unused.includes(p)),
        ...rec('results', 'students', 'line_items', 'entities'),
        ...schoolHeldSources('line_items'),
        keys.naturalKeyPartition('results'),
      ]),
    ],
    writes: create.writes.filter((p) => !unused.includes(p)),
  });
};

/**
 * The Gradebook's writes, made when asked for: the binding's read handlers, which never serve one, do not
 * make them as they are imported.
 */
export const gradebookWriteRoutes = () => [
  // A new category is in the school year that holds the day, found among the academic sessions.
  ...gradebookWrites('categories', 'category', 'categories', rec('academic_sessions')),
  // A score scale is a class's own: the write's reference to its class checks that it is there.
  ...gradebookWrites('scoreScales', 'score-scale', 'score_scales', []),
  // A line item's school is checked to be its class's.
  ...gradebookWrites('lineItems', 'line-item', 'line_items', rec('classes')),
  // A result's class is its line item's, its student the student record of the user it names.
  ...gradebookWrites('results', 'result', 'results', rec('line_items', 'entities')),
  postResultsOfLineItem(),
  // An assessment's references are checked by the write itself; a result's assessment and student's
  // user are read first.
  ...gradebookWrites(
    'assessmentLineItems',
    'assessment-line-item',
    'assessment_line_items',
    [],
    assessmentObjects,
  ),
  ...gradebookWrites(
    'assessmentResults',
    'assessment-result',
    'assessment_results',
    rec('assessment_line_items', 'entities'),
    assessmentObjects,
  ),
];

export type GradebookWriteRouteId = ReturnType<typeof gradebookWriteRoutes>[number]['id'];

/** The row of a Gradebook write, for its handler's factory (shared/wiring/oneroster-write-api.ts). */
export const gradebookWriteRoute = (id: GradebookWriteRouteId) => rowOf(gradebookWriteRoutes(), id);
