// What a request's token may read of a record group, by the role table (roles.ts). A client's token, and a
// person whose roles reach the group `all`, read all of it. Otherwise a person reads a set of ids: `own`,
// their records of the group, named by their entity's roles, and their classes and enrollments, listed on
// their entity; `in-care`, the students of their tutor records, and those students' classes and
// enrollments; `taught`, the students and enrollments of the classes they teach, listed on those classes.
// A class's line items are in a listing by class: its students and their guardians read those released to
// students, its teachers all of them. Its results are in a listing by class and student: a student reads
// their own, a guardian their children's, for the line items released to students; a teacher all of them.
// Attendance is in a listing by class and student too, a whole day's under no class: a student reads all
// of their own, a guardian their children's, a teacher their classes' (never a whole day's). Assessment
// results are in a listing by student: a student reads their own, a guardian their children's.
// The set is read fresh on every request, by id (never a whole group), since a person's records, the
// students in their care and the classes' enrollments change while a token lives.
import type { EnrollmentEntry } from '../data/enrollment-entries';
import { entriesOf } from '../data/enrollment-entries';
import { keys } from '../data/keys';
import {
  isClassWork,
  isStudentWork,
  type ListingName,
  rangesOfStudent,
  type StudentWork,
} from '../data/listings';
import { inScope, type ReadScope } from '../data/read-scope';
import { internal, toRecord } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { isRoleGroup, type RecordGroup, roleName } from '../domain/groups';
import type { Entity, EntityRole, Tutor } from '../schemas/records';
import type { AccessToken } from './access-token';
import { personRoles, type Reach, reachOf, rolePolicy } from './roles';
import { ofOneClass, SchoolHoldings, schoolScope, sharedBySchools } from './school-scope';

/** The ids of an entity's records of one role. */
export const idsOfRole = (entity: Pick<Entity, 'roles'>, role: EntityRole['role']): string[] =>
  entity.roles.filter((r) => r.role === role).map((r) => r.id);

/** The enrollment roles that teach a class: its students are in their reach. */
const teaching: readonly string[] = ['teacher', 'aide'];

/** What a person's reach is read from: their entity and, as the reach needs them, the lists it leads to. */
export interface ReachSources {
  entity: Entity;
  /** The person's tutor records (for `in-care`). */
  tutors: readonly Tutor[];
  /** The person's own enrollments, from their entity's list. */
  enrolled: readonly EnrollmentEntry[];
  /** The enrollments of the students in the person's care, from those students' entities. */
  inCare: readonly EnrollmentEntry[];
  /** The enrollments of the classes the person teaches, from those classes' lists. */
  taught: readonly EnrollmentEntry[];
  /** The student records of the people enrolled as students in the classes the person teaches. */
  taughtStudents: readonly string[];
  /** The line items of the classes the person's reach leads to, by class: all, or those released to students. */
  lineItems: {
    all: ReadonlyMap<string, readonly string[]>;
    released: ReadonlyMap<string, readonly string[]>;
  };
  /**
   * The results or attendance records the person's reach leads to: their own and their children's (of
   * results, for line items released to students); all those of the classes they teach.
   */
  studentWork: { own: readonly string[]; inCare: readonly string[]; taught: readonly string[] };
  /** The assessment results of the person's own student records, and of the students in their care. */
  assessmentResults: { own: readonly string[]; inCare: readonly string[] };
}

/** Nothing read yet: what a person's reach starts from, given their entity and enrollments. */
const noSources = (entity: Entity, enrolled: readonly EnrollmentEntry[]): ReachSources => ({
  entity,
  tutors: [],
  enrolled,
  inCare: [],
  taught: [],
  taughtStudents: [],
  lineItems: { all: new Map(), released: new Map() },
  studentWork: { own: [], inCare: [], taught: [] },
  assessmentResults: { own: [], inCare: [] },
});

/** The classes a person teaches, from their own enrollments. */
export const classesTaught = (enrolled: readonly EnrollmentEntry[]) => [
  ...new Set(enrolled.filter((e) => teaching.includes(e.role)).map((e) => e.otherId)),
];

/** The classes some enrollments (a person's, or their children's) make a student of. */
export const studentOf = (entries: readonly EnrollmentEntry[]) =>
  entries.filter((e) => e.role === 'student').map((e) => e.otherId);

/** The line items of some classes, from what the sources read of them. */
const workOf = (classes: readonly string[], byClass: ReadonlyMap<string, readonly string[]>) =>
  classes.flatMap((id) => byClass.get(id) ?? []);

/** A person's own records of a group: their entity, their records of its role, their classes and enrollments. */

function ownIds(
  group: RecordGroup,
  { entity, enrolled, lineItems, studentWork, assessmentResults }: ReachSources,
): string[] {
  if (group === 'entities') return [entity.entity_id];
  if (group === 'assessment_results') return [...assessmentResults.own];
  if (isStudentWork(group)) return [...studentWork.own];
  if (group === 'line_items')
    return workOf(
      enrolled.map((e) => e.otherId),
      lineItems.released,
    );
  if (group === 'classes') return enrolled.map((e) => e.otherId);
  if (group === 'enrollments') return enrolled.map((e) => e.enrollmentId);
  return isRoleGroup(group) ? idsOfRole(entity, roleName(group)) : [];
}

function inCareIds(
  group: RecordGroup,
  { tutors, inCare, lineItems, studentWork, assessmentResults }: ReachSources,
): string[] {
  if (isStudentWork(group)) return [...studentWork.inCare];
  if (group === 'assessment_results') return [...assessmentResults.inCare];
  if (group === 'students') return tutors.flatMap((tutor) => tutor.student_ids);
  if (group === 'classes') return studentOf(inCare);
  if (group === 'line_items') return workOf(studentOf(inCare), lineItems.released);
  if (group === 'enrollments') return inCare.map((e) => e.enrollmentId);
  return [];
}

function taughtIds(
  group: RecordGroup,
  { enrolled, taught, taughtStudents, lineItems, studentWork }: ReachSources,
): string[] {
  if (isStudentWork(group)) return [...studentWork.taught];
  if (group === 'students') return [...taughtStudents];
  if (group === 'line_items') return workOf(classesTaught(enrolled), lineItems.all);
  if (group === 'enrollments') return taught.map((e) => e.enrollmentId);
  return [];
}

/**
 * Whether a person's reach into a group goes through the classes they or the students in their care are
 * in: the classes, and the records each of one class (an enrollment, a line item).
 */
const throughClasses = (group: RecordGroup) => group === 'classes' || ofOneClass(group);

/**
 * Every partition a restricted read of `group` may consult, whoever reads: what its routes are granted.
 * The groups' records, and for line items their listing.
 */
export function reachSources(group: RecordGroup): string[] {
  const reaches = new Set(personRoles.map((role) => rolePolicy[role][group]));
  const sources = new Set<RecordGroup>();
  if (reaches.has('own')) sources.add('entities');
  if (reaches.has('in-care')) {
    sources.add('entities').add('tutors');
    if (throughClasses(group)) sources.add('students');
  }
  if (reaches.has('taught')) sources.add('entities');
  if (reaches.has('taught') && !isClassWork(group)) sources.add('classes');
  // Results are shown as their line items are: both listings are read.
  const listings: ListingName[] = group === 'results' ? ['line_items', 'results'] : [group as ListingName];
  const listed =
    (isClassWork(group) || group === 'assessment_results') && sources.size > 0
      ? listings.map(keys.listingPartition)
      : [];
  return [...[...sources].map(keys.recordPartition), ...listed];
}

/** The ids some reaches into a group give, from what the person's reach is read from, once each in id order. */
export function idsInReach(group: RecordGroup, reaches: readonly Reach[], sources: ReachSources): string[] {
  const ids = new Set<string>();
  if (reaches.includes('own')) for (const id of ownIds(group, sources)) ids.add(id);
  if (reaches.includes('in-care')) for (const id of inCareIds(group, sources)) ids.add(id);
  if (reaches.includes('taught')) for (const id of taughtIds(group, sources)) ids.add(id);
  return [...ids].sort();
}

/**
 * The results or attendance a person reads: those of the classes they teach, and their own and their
 * children's (results for the line items released to students; attendance whole days too), each range
 * of the listing one Query.
 */
async function studentWorkInReach(
  records: RecordRepository,
  listing: StudentWork,
  { entity, enrolled, lineItems }: ReachSources,
  reaches: readonly Reach[],
  children: readonly { studentId: string; classIds: readonly string[] }[],
): Promise<ReachSources['studentWork']> {
  const shown = new Set([...lineItems.released.values()].flat());
  const ranges = (students: readonly { studentId: string; classIds: readonly string[] }[]) =>
    students.flatMap(({ studentId, classIds }) => rangesOfStudent(listing, studentId, classIds));
  const theirs = async (students: readonly { studentId: string; classIds: readonly string[] }[]) =>
    (await records.studentWorkOfClasses(listing, ranges(students)))
      .filter((entry) => listing === 'attendance' || shown.has(entry.last))
      .map((entry) => entry.recordId);
  const mine = reaches.includes('own')
    ? idsOfRole(entity, 'student').map((studentId) => ({ studentId, classIds: studentOf(enrolled) }))
    : [];
  const taught = reaches.includes('taught') ? classesTaught(enrolled).map((classId) => ({ classId })) : [];
  const [own, inCare, all] = await Promise.all([
    theirs(mine),
    theirs(children),
    records.studentWorkOfClasses(listing, taught),
  ]);
  return { own, inCare, taught: all.map((entry) => entry.recordId) };
}

/**
 * What the request's token may read of a group: for a person who may read only some, read from their
 * records; for a client registered with schools, only what those schools hold (school-scope.ts), and for
 * a person signed in through such a client, what both allow.
 */
export async function readScope(
  auth: AccessToken | undefined,
  group: RecordGroup,
  records: RecordRepository,
): Promise<ReadScope> {
  const [reach, schools] = await Promise.all([
    personScope(auth, group, records),
    auth?.schools && !sharedBySchools(group) ? schoolScope(auth.schools, group, records) : undefined,
  ]);
  if (!schools) return reach;
  if (reach.all) {
    return {
      all: false,
      ids: schools.ids,
      changedAt: schools.changedAt,
      since: schools.since,
      schools: { schools: auth?.schools ?? [], classIds: schools.classIds, persons: schools.persons },
    };
  }
  // A person through a school-scoped client: what both allow. Its deletions are told as a person's are,
  // from when either set last changed.
  const schoolIds = new Set(schools.ids);
  const both = reach.ids.filter((id) => schoolIds.has(id));
  const latest = (...times: (string | undefined)[]) =>
    times
      .filter((at): at is string => at !== undefined)
      .sort()
      .at(-1);
  const since = both.flatMap((id) => {
    const at = latest(schools.since.get(id), reach.changedAt);
    return at === undefined ? [] : [[id, at] as const];
  });
  return {
    all: false,
    ids: both,
    changedAt: latest(reach.changedAt, schools.changedAt),
    since: new Map(since),
  };
}

/**
 * Whether the request's token may read one record of a group: within a person's reach, and for a client
 * registered with schools, held by them, as `readScope` says, found from the record alone.
 */
export async function canRead(
  auth: AccessToken | undefined,
  group: RecordGroup,
  id: string,
  records: RecordRepository,
): Promise<boolean> {
  const [reach, held] = await Promise.all([
    personScope(auth, group, records),
    auth?.schools && !sharedBySchools(group)
      ? new SchoolHoldings(auth.schools, records).held(group, [id])
      : undefined,
  ]);
  return inScope(reach, id) && (held === undefined || held.has(id));
}

/** What a person's roles let them read of a group; all of it for a client's own token. */
async function personScope(
  auth: AccessToken | undefined,
  group: RecordGroup,
  records: RecordRepository,
): Promise<ReadScope> {
  const person = auth?.person;
  if (!person) return { all: true };
  const reaches = reachOf(person.roles, group);
  if (reaches.includes('all')) return { all: true };
  if (reaches.length === 0) return { all: false, ids: [], changedAt: undefined };
  const item = await records.getItem('entities', person.entityId);
  // An entity is deleted only once it has no records left, so its person now reads nothing; when that
  // changed is not known any more, so it counts as now.
  if (!item) return { all: false, ids: [], changedAt: new Date().toISOString() };
  const entity = toRecord('entities', item);
  const enrolled = entriesOf(item[internal.enrollments]);
  // When what the set is read from last changed: records' updated_at, and the enrollment lists' own time.
  const changes: (string | undefined)[] = [entity.updated_at, item[internal.enrolledAt] as string];
  const sources = noSources(entity, enrolled);
  const enrolledGroup = throughClasses(group);
  /** Each student in the person's care, and the classes they are a student of. */
  let children: { studentId: string; classIds: string[] }[] = [];

  if (reaches.includes('in-care')) {
    sources.tutors = [...(await records.getMany('tutors', idsOfRole(entity, 'tutor'))).values()];
    changes.push(...sources.tutors.map((t) => t.updated_at));
    if (enrolledGroup) {
      const students = [...(await records.getMany('students', inCareIds('students', sources))).values()];
      const lists = await records.enrollmentLists('entities', [...new Set(students.map((s) => s.entity_id))]);
      sources.inCare = [...lists.values()].flatMap((list) => list.entries);
      children = students.map((s) => ({
        studentId: s.student_id,
        classIds: studentOf(lists.get(s.entity_id)?.entries ?? []),
      }));
      changes.push(...students.map((s) => s.updated_at), ...[...lists.values()].map((l) => l.changedAt));
    }
  }

  if (isClassWork(group)) {
    // A record's own change (made, released, deleted) is its news: the set changes with the classes.
    const released = [
      ...(reaches.includes('own') ? enrolled.map((e) => e.otherId) : []),
      ...(reaches.includes('in-care') ? studentOf(sources.inCare) : []),
    ];
    const taught = reaches.includes('taught') ? classesTaught(enrolled) : [];
    const [all, shown] = await Promise.all([
      records.lineItemsOfClasses(group === 'line_items' ? taught : []),
      records.lineItemsOfClasses(group === 'attendance' ? [] : released, true),
    ]);
    sources.lineItems = { all, released: shown };
    if (isStudentWork(group)) {
      sources.studentWork = await studentWorkInReach(records, group, sources, reaches, children);
    }
  } else if (group === 'assessment_results') {
    // A student's assessment results, and their children's: their range of the listing by student.
    const [own, inCare] = await Promise.all([
      records.assessmentResultsOfStudents(reaches.includes('own') ? idsOfRole(entity, 'student') : []),
      records.assessmentResultsOfStudents(reaches.includes('in-care') ? inCareIds('students', sources) : []),
    ]);
    sources.assessmentResults = { own, inCare };
  } else if (reaches.includes('taught')) {
    const classIds = classesTaught(enrolled);
    const lists = await records.enrollmentLists('classes', classIds);
    sources.taught = [...lists.values()].flatMap((list) => list.entries);
    changes.push(...[...lists.values()].map((l) => l.changedAt));
    if (group === 'students') {
      const pupils = [...new Set(sources.taught.filter((e) => e.role === 'student').map((e) => e.otherId))];
      const entities = [...(await records.rolesOfEntities(pupils)).values()];
      sources.taughtStudents = entities.flatMap((e) => idsOfRole(e, 'student'));
      changes.push(...entities.map((e) => e.updated_at));
    }
  }

  return {
    all: false,
    ids: idsInReach(group, reaches, sources),
    changedAt: changes
      .filter((at): at is string => typeof at === 'string')
      .sort()
      .at(-1),
  };
}
