// The OneRoster 1.2 Rostering and Gradebook REST bindings' read operations, and the Gradebook's writes
// (gradebook-write-routes.ts), as rows of the route table (shared/routes.ts): each under
// /ims/oneroster/rostering/v1p2 in one of three `oneroster-` areas, or under /ims/oneroster/gradebook/v1p2
// in `oneroster-gradebook`, with the binding's scopes and imsx_StatusInfo errors.
import { schoolSources } from '../auth/school-scope';
import { keys } from '../data/keys';
import { oneRosterScopes, personGroups, type RecordGroup, recordGroups, roleGroups } from '../domain/groups';
import { type Route, type RouteAudit, row } from '../route';
import { collectionParameters } from './collection-query';
import { ASSESSMENTS_AREA, gradebookWriteRoutes } from './gradebook-write-routes';
import { GRADEBOOK_PATH, ROSTERING_PATH } from './paths';

/**
 * The route area (nested stack, functions/<area>/) of an operation, by the objects it serves: people,
 * organisations and what hangs off a school, or sessions, courses, classes and enrollments. Three areas
 * keep each stack far under CloudFormation's resource limit as routes are added.
 */
const peopleHandlers = new Set([
  'users',
  'user',
  'students',
  'student',
  'teachers',
  'teacher',
  'demographics',
  'classes-of-user',
  'classes-of-student',
  'classes-of-teacher',
]);
const orgHandlers = new Set([
  'orgs',
  'org',
  'schools',
  'school',
  'classes-of-school',
  'courses-of-school',
  'terms-of-school',
  'enrollments-of-school',
  'students-of-school',
  'teachers-of-school',
  'enrollments-of-class-in-school',
  'students-of-class-in-school',
  'teachers-of-class-in-school',
]);
function areaOf(stem: string): string {
  if (peopleHandlers.has(stem)) return 'oneroster-people';
  if (orgHandlers.has(stem)) return 'oneroster-orgs';
  return 'oneroster-classes';
}

/** Core collections take roster-core.readonly or roster.readonly (binding section 4). */
const core = { kind: 'scope', scope: oneRosterScopes.core, or: oneRosterScopes.roster } as const;
/** The gradebook's collections of its objects take gradebook.readonly or gradebook-core.readonly. */
const gradebookCore = {
  kind: 'scope',
  scope: oneRosterScopes.gradebookCore,
  or: oneRosterScopes.gradebook,
} as const;
const demographics = { kind: 'scope', scope: oneRosterScopes.demographics } as const;
/** The assessment line items and results take assessment.readonly (the Gradebook binding's OpenAPI file). */
const assessments = { kind: 'scope', scope: oneRosterScopes.assessment } as const;

/**
 * Users and orgs are entities: by id, from their listings, or read whole (the counter bounds the read).
 * Every user's roles are at the root organisation, found in the organisations' listing.
 */
const orgListing = keys.listingPartition('orgs');
const entityReads = [keys.recordPartition('entities'), keys.counterPartition, orgListing];
/** The organisations are read from their listing, whole: a few, whatever the number of people. */
const orgReads = [keys.recordPartition('entities'), orgListing];
/**
 * A user's enabledUser comes from the person's role records, of any role, and its agents from a
 * student's tutors and a tutor's students; its roles' schools from the classes of its enrollments.
 */
const roleRecords = roleGroups.map(keys.recordPartition);
/**
 * A list of users reads a page of its listing, and only the changed entities, from the changes index,
 * for `dateLastModified>`. All users are counted without the organisations and the persons without a role.
 */
const userListing = [keys.listingPartition('users'), keys.listingPartition('roleless-people')];
const userReads = (...listings: string[]) => [
  ...entityReads,
  ...listings,
  keys.changePartition('entities'),
  ...roleRecords,
  keys.recordPartition('classes'),
];

/** A school's classes, from their listing: what its nested collections start from. */
const classListing = keys.listingPartition('classes');
/**
 * A school's students or teachers: its classes, their enrollment lists (on the class items), and those
 * users as any list of users reads them.
 */
const schoolPeopleReads = [
  keys.recordPartition('entities'),
  keys.recordPartition('classes'),
  orgListing,
  classListing,
  ...roleRecords,
  keys.deletionPartition('enrollments'),
];

/** A class's students or teachers: the class (and its school), its enrollment list, those users. */
const classPeopleReads = [
  keys.recordPartition('entities'),
  keys.recordPartition('classes'),
  orgListing,
  ...roleRecords,
  keys.deletionPartition('enrollments'),
];

const imsx = { kind: 'imsx' } as const;

/**
 * What a client registered with schools reads beyond a route's own partitions, to find what they hold of
 * each group the route reads (school-scope.ts): their classes' listing and items, and the people,
 * guardians and sessions they lead to.
 */
const withSchools = (reads: readonly string[]) => [
  ...new Set([
    ...reads,
    ...recordGroups.filter((g) => reads.includes(keys.recordPartition(g))).flatMap(schoolSources),
  ]),
];

/** Nested collections take roster.readonly alone (binding section 4). */
const roster = { kind: 'scope', scope: oneRosterScopes.roster } as const;

const rec = (...groups: Parameters<typeof keys.recordPartition>[0][]) => groups.map(keys.recordPartition);

/**
 * A request that returns or names people is audited as a read of entities (a user's sourcedId is its
 * entity id), naming the people its path names: `named` are the path's ids that follow a collection of
 * people, never a school's or class's.
 */
const people = (...named: string[]): RouteAudit => ({ group: 'entities', named, caseless: true });

/**
 * A nested collection, `GET <path>`. The object a path names first is `{sourcedId}`, as in the object's
 * own path (API Gateway wants one name a position); a class under a school is `{classSourcedId}`.
 */
function nested<const Id extends string>(
  id: Id,
  path: string,
  handler: string,
  reads: readonly string[],
  audit?: RouteAudit,
) {
  return row({
    ...(audit ? { audit } : {}),
    id: `list-oneroster-${id}`,
    method: 'GET',
    path: `${ROSTERING_PATH}${path}`,
    handler: `${areaOf(handler.replace(/^list-/, ''))}/${handler}`,
    auth: roster,
    query: collectionParameters,
    access: 'read',
    reads: withSchools(reads),
    writes: [],
    dialect: imsx,
  });
}

/** The Gradebook's collections nested under a class take gradebook.readonly alone (its OpenAPI file). */
const gradebook = { kind: 'scope', scope: oneRosterScopes.gradebook } as const;

/** A collection the Gradebook binding nests under another object's path. */
function nestedInGradebook<const Id extends string>(
  id: Id,
  path: string,
  handler: string,
  reads: readonly string[],
) {
  return row({
    id: `list-oneroster-${id}`,
    method: 'GET',
    path: `${GRADEBOOK_PATH}${path}`,
    handler: `oneroster-gradebook/${handler}`,
    auth: gradebook,
    query: collectionParameters,
    access: 'read',
    reads: withSchools(reads),
    writes: [],
    dialect: imsx,
  });
}

/** A collection and its single-object read: `GET <path>` and `GET <path>/{sourcedId}`. */
function collection<
  const Name extends string,
  const Single extends string,
  const Plural extends string = Name,
>(
  name: Name,
  single: Single,
  auth: Route['auth'],
  reads: readonly string[],
  options: {
    /** The kebab-case name of the handlers and route ids, where the path's name is camelCase. */
    plural?: Plural;
    /** A collection of people: its requests are audited. */
    ofPeople?: true;
    /** The groups whose deletions its delta reads tell of (the list alone reads their feeds). */
    deletions?: readonly RecordGroup[];
    /** The Gradebook service's collection, rather than the Rostering service's. */
    gradebook?: true;
    /** Its handlers' area, where it is not the service's own (the assessments have theirs). */
    area?: string;
    /**
     * Partitions of records the objects name, read by id once a page is found (a result's student
     * records): a client registered with schools reads them as any client does.
     */
    named?: readonly string[];
  } = {},
) {
  // Without a plural of its own, Plural is Name.
  const plural = (options.plural ?? name) as Plural;
  const { ofPeople } = options;
  const basePath = options.gradebook ? GRADEBOOK_PATH : ROSTERING_PATH;
  const area = (stem: string) => options.area ?? (options.gradebook ? 'oneroster-gradebook' : areaOf(stem));
  const named = options.named ?? [];
  const base = {
    auth,
    access: 'read',
    reads: [...withSchools(reads), ...named],
    writes: [],
    dialect: imsx,
  } as const;
  const audit = (...named: string[]) => (ofPeople ? { audit: people(...named) } : {});
  return [
    row({
      ...base,
      id: `list-oneroster-${plural}`,
      method: 'GET',
      path: `${basePath}/${name}`,
      handler: `${area(plural)}/list-${plural}`,
      reads: [...withSchools([...reads, ...(options.deletions ?? []).map(keys.deletionPartition)]), ...named],
      query: collectionParameters,
      ...audit(),
    }),
    row({
      ...base,
      id: `get-oneroster-${single}`,
      method: 'GET',
      path: `${basePath}/${name}/{sourcedId}`,
      handler: `${area(single)}/get-${single}`,
      query: ['fields'],
      ...audit('sourcedId'),
    }),
  ] as const;
}

/** A class's results: the class, its range of the results' listing, the results and their students, and their deletions. */
const classResults = [
  ...rec('classes', 'results', 'students'),
  keys.listingPartition('results'),
  keys.deletionPartition('results'),
];

/** The binding's reads, among which its read handlers find their rows (shared/wiring/oneroster-api.ts). */
export const oneRosterReadRoutes = [
  ...collection('users', 'user', core, userReads(...userListing), { ofPeople: true, deletions: roleGroups }),
  ...collection('students', 'student', core, userReads(keys.listingPartition('students')), {
    ofPeople: true,
    deletions: ['students'],
  }),
  ...collection('teachers', 'teacher', core, userReads(keys.listingPartition('teachers')), {
    ofPeople: true,
    deletions: ['teachers'],
  }),
  ...collection('orgs', 'org', core, orgReads, { deletions: ['entities'] }),
  ...collection('schools', 'school', core, orgReads, { deletions: ['entities'] }),
  ...collection(
    'academicSessions',
    'academic-session',
    core,
    [...rec('academic_sessions'), keys.counterPartition],
    { plural: 'academic-sessions', deletions: ['academic_sessions'] },
  ),
  ...collection('terms', 'term', core, [...rec('academic_sessions'), keys.counterPartition], {
    deletions: ['academic_sessions'],
  }),
  ...collection(
    'gradingPeriods',
    'grading-period',
    core,
    [...rec('academic_sessions'), keys.counterPartition],
    { plural: 'grading-periods', deletions: ['academic_sessions'] },
  ),
  ...collection(
    'courses',
    'course',
    core,
    [...rec('courses'), keys.counterPartition, keys.changePartition('courses')],
    { deletions: ['courses'] },
  ),
  ...collection(
    'classes',
    'class',
    core,
    [...rec('classes', 'courses'), keys.counterPartition, keys.changePartition('classes')],
    { deletions: ['classes'] },
  ),
  ...collection(
    'enrollments',
    'enrollment',
    core,
    [...rec('enrollments', 'classes'), keys.counterPartition, keys.changePartition('enrollments')],
    {
      deletions: ['enrollments'],
    },
  ),
  nested('classes-of-school', '/schools/{sourcedId}/classes', 'list-classes-of-school', [
    ...rec('entities', 'classes', 'courses'),
    classListing,
    keys.deletionPartition('classes'),
  ]),
  nested('courses-of-school', '/schools/{sourcedId}/courses', 'list-courses-of-school', [
    ...rec('entities', 'courses'),
    keys.listingPartition('courses'),
    keys.deletionPartition('courses'),
  ]),
  nested('terms-of-school', '/schools/{sourcedId}/terms', 'list-terms-of-school', [
    ...rec('entities', 'academic_sessions', 'classes'),
    keys.counterPartition,
    classListing,
  ]),
  nested('enrollments-of-school', '/schools/{sourcedId}/enrollments', 'list-enrollments-of-school', [
    ...rec('entities', 'enrollments', 'classes'),
    classListing,
    keys.deletionPartition('enrollments'),
  ]),
  nested(
    'students-of-school',
    '/schools/{sourcedId}/students',
    'list-students-of-school',
    schoolPeopleReads,
    people(),
  ),
  nested(
    'teachers-of-school',
    '/schools/{sourcedId}/teachers',
    'list-teachers-of-school',
    schoolPeopleReads,
    people(),
  ),
  nested(
    'students-of-class',
    '/classes/{sourcedId}/students',
    'list-students-of-class',
    classPeopleReads,
    people(),
  ),
  nested(
    'teachers-of-class',
    '/classes/{sourcedId}/teachers',
    'list-teachers-of-class',
    classPeopleReads,
    people(),
  ),
  nested(
    'enrollments-of-class-in-school',
    '/schools/{sourcedId}/classes/{classSourcedId}/enrollments',
    'list-enrollments-of-class-in-school',
    [...rec('entities', 'classes', 'enrollments'), keys.deletionPartition('enrollments')],
  ),
  nested(
    'students-of-class-in-school',
    '/schools/{sourcedId}/classes/{classSourcedId}/students',
    'list-students-of-class-in-school',
    classPeopleReads,
    people(),
  ),
  nested(
    'teachers-of-class-in-school',
    '/schools/{sourcedId}/classes/{classSourcedId}/teachers',
    'list-teachers-of-class-in-school',
    classPeopleReads,
    people(),
  ),
  nested('classes-of-course', '/courses/{sourcedId}/classes', 'list-classes-of-course', [
    ...rec('courses', 'classes'),
    keys.referrerPartition('classes'),
    keys.deletionPartition('classes'),
  ]),
  nested('classes-of-term', '/terms/{sourcedId}/classes', 'list-classes-of-term', [
    ...rec('academic_sessions', 'classes', 'courses'),
    keys.referrerPartition('classes'),
    keys.deletionPartition('classes'),
  ]),
  nested('grading-periods-of-term', '/terms/{sourcedId}/gradingPeriods', 'list-grading-periods-of-term', [
    ...rec('academic_sessions'),
    keys.counterPartition,
    keys.deletionPartition('academic_sessions'),
  ]),
  nested(
    'classes-of-user',
    '/users/{sourcedId}/classes',
    'list-classes-of-user',
    [...rec('entities', 'enrollments', 'classes', 'courses')],
    people('sourcedId'),
  ),
  nested(
    'classes-of-student',
    '/students/{sourcedId}/classes',
    'list-classes-of-student',
    [...rec('entities', 'enrollments', 'classes', 'courses')],
    people('sourcedId'),
  ),
  nested(
    'classes-of-teacher',
    '/teachers/{sourcedId}/classes',
    'list-classes-of-teacher',
    [...rec('entities', 'enrollments', 'classes', 'courses')],
    people('sourcedId'),
  ),
  ...collection(
    'demographics',
    'demographics',
    demographics,
    [
      ...entityReads,
      ...userListing,
      ...roleRecords,
      ...personGroups.map((group) => keys.changePartition(group)),
    ],
    {
      ofPeople: true,
      deletions: roleGroups,
    },
  ),
  ...collection(
    'categories',
    'category',
    gradebookCore,
    [...rec('categories'), keys.counterPartition, keys.changePartition('categories')],
    { deletions: ['categories'], gradebook: true },
  ),
  // The binding's score scales are classes' own: the scales are read whole (a few a class at most) and
  // the tenant's, which name no class, left out; a class's from its range of the scales' listing.
  ...collection(
    'scoreScales',
    'score-scale',
    gradebookCore,
    [...rec('score_scales'), keys.counterPartition],
    {
      plural: 'score-scales',
      deletions: ['score_scales'],
      gradebook: true,
    },
  ),
  nestedInGradebook(
    'score-scales-of-class',
    '/classes/{sourcedId}/scoreScales',
    'list-score-scales-of-class',
    [
      ...rec('classes', 'score_scales'),
      keys.listingPartition('score_scales'),
      keys.deletionPartition('score_scales'),
    ],
  ),
  nestedInGradebook(
    'score-scales-of-school',
    '/schools/{sourcedId}/scoreScales',
    'list-score-scales-of-school',
    [
      ...rec('entities', 'classes', 'score_scales'),
      keys.counterPartition,
      keys.deletionPartition('score_scales'),
    ],
  ),
  ...collection(
    'lineItems',
    'line-item',
    gradebookCore,
    [
      ...rec('line_items', 'classes', 'score_scales'),
      keys.counterPartition,
      keys.changePartition('line_items'),
    ],
    { plural: 'line-items', deletions: ['line_items'], gradebook: true },
  ),
  // A class's categories are those its line items name.
  nestedInGradebook('categories-of-class', '/classes/{sourcedId}/categories', 'list-categories-of-class', [
    ...rec('classes', 'line_items', 'categories'),
    keys.listingPartition('line_items'),
  ]),
  nestedInGradebook('line-items-of-class', '/classes/{sourcedId}/lineItems', 'list-line-items-of-class', [
    ...rec('classes', 'line_items', 'score_scales'),
    keys.listingPartition('line_items'),
    keys.deletionPartition('line_items'),
  ]),
  // A result names its student by their user: the page's student records are read for their entities.
  ...collection(
    'results',
    'result',
    gradebookCore,
    [...rec('results'), keys.counterPartition, keys.changePartition('results')],
    { deletions: ['results'], gradebook: true, named: rec('students') },
  ),
  nestedInGradebook(
    'results-of-class',
    '/classes/{sourcedId}/results',
    'list-results-of-class',
    classResults,
  ),
  nestedInGradebook(
    'results-of-student-in-class',
    '/classes/{sourcedId}/students/{studentSourcedId}/results',
    'list-results-of-student-in-class',
    [...classResults, keys.recordPartition('entities')],
  ),
  nestedInGradebook(
    'results-of-line-item-in-class',
    '/classes/{sourcedId}/lineItems/{lineItemSourcedId}/results',
    'list-results-of-line-item-in-class',
    [...classResults, keys.recordPartition('line_items')],
  ),
  ...collection(
    'assessmentLineItems',
    'assessment-line-item',
    assessments,
    [
      ...rec('assessment_line_items', 'score_scales'),
      keys.counterPartition,
      keys.changePartition('assessment_line_items'),
    ],
    {
      plural: 'assessment-line-items',
      deletions: ['assessment_line_items'],
      gradebook: true,
      area: ASSESSMENTS_AREA,
    },
  ),
  // An assessment result names its student by their user, as a result does.
  ...collection(
    'assessmentResults',
    'assessment-result',
    assessments,
    [...rec('assessment_results'), keys.counterPartition, keys.changePartition('assessment_results')],
    {
      plural: 'assessment-results',
      deletions: ['assessment_results'],
      gradebook: true,
      named: rec('students'),
      area: ASSESSMENTS_AREA,
    },
  ),
];

export type OneRosterReadRouteId = (typeof oneRosterReadRoutes)[number]['id'];

/** Every row of the binding: its reads, then the Gradebook's writes. */
export const oneRosterRoutes = () => [...oneRosterReadRoutes, ...gradebookWriteRoutes()];

export type OneRosterRouteId = ReturnType<typeof oneRosterRoutes>[number]['id'];
