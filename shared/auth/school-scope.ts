// What a client registered with `schools` may read of a record group (docs/sso.md, "School scoping"): the
// records tied to those schools through their classes. A school's classes are a range of the classes'
// listing; each class names its course and terms and lists its enrollments (role and person), so the
// school's records are found from those few items and the people's roles, never from a group's partition.
// Read on every request, as a person's reach is, since enrollments and care change while a token lives: a
// request costs what the schools have, as `/schools/{id}/students` does, whatever the district's size.
import { keys } from '../data/keys';
import type { RecordRepository } from '../data/record-repository';
import { type RecordGroup, recordGroups, roleName } from '../domain/groups';

export interface SchoolScope {
  /** The ids of the group the schools' records hold, in id order. */
  ids: string[];
  /**
   * Per id, the latest change of what ties the record to the schools where that is not the record itself:
   * the enrollment lists of a person's classes there, a course's or term's classes, a guardian's
   * students. A changes feed puts the record at the later of this and its own change, so a record that
   * came into the schools is news to the client whenever it last changed.
   */
  since: ReadonlyMap<string, string>;
  /** The newest of those changes. */
  changedAt: string | undefined;
  /** The schools' classes now, and the persons enrolled in them or caring for their students. */
  classIds: readonly string[];
  persons: ReadonlySet<string>;
}

/** The groups whose records are tied to a school through the people its classes enroll (and who may leave them). */
export const heldThroughPeople: readonly RecordGroup[] = ['students', 'teachers', 'tutors', 'entities'];

/** The groups a school holds by its classes' enrollment lists: those people, and the enrollments themselves. */
const heldThroughEnrollments: readonly RecordGroup[] = [...heldThroughPeople, 'enrollments'];

/** A staff record names no school: no school holds one. */
const heldByNoSchool: readonly RecordGroup[] = ['staffs'];

/** The role group an enrollment's role makes a person part of: students, or teachers for every other role. */
export const enrolledGroup = (role: string): RecordGroup => (role === 'student' ? 'students' : 'teachers');

/** The records of `group` the schools hold (the rule of docs/sso.md), with what ties each to them. */
export async function schoolScope(
  schools: readonly string[],
  group: RecordGroup,
  records: RecordRepository,
): Promise<SchoolScope> {
  if (heldByNoSchool.includes(group)) {
    return { ids: [], since: new Map(), changedAt: undefined, classIds: [], persons: new Set() };
  }
  const classIds = await records.classIdsOfSchools(schools);
  const classes = await records.classFacts(classIds, heldThroughEnrollments.includes(group));
  const since = new Map<string, string>();
  const mark = (id: string, at: string | undefined) => {
    if (at !== undefined && !((since.get(id) ?? '') >= at)) since.set(id, at);
  };
  const ids = new Set<string>();
  const persons = new Set<string>();
  /** Per person, the roles they are enrolled with there (each marked with their classes' lists' latest change). */
  const enrolled = new Map<string, Set<string>>();
  for (const facts of classes.values()) {
    for (const entry of facts.entries) {
      persons.add(entry.otherId);
      enrolled.set(entry.otherId, (enrolled.get(entry.otherId) ?? new Set()).add(entry.role));
      mark(entry.otherId, facts.enrolledAt);
    }
  }
  const personsAs = (role: RecordGroup) =>
    [...enrolled].filter(([, roles]) => [...roles].some((r) => enrolledGroup(r) === role)).map(([id]) => id);
  const rolesOf = async (role: 'students' | 'teachers', people: readonly string[]) => {
    const entities = await records.rolesOfEntities(people);
    return people.flatMap((person) => {
      const ofRole = (entities.get(person)?.roles ?? [])
        .filter((r) => r.role === roleName(role))
        .map((r) => r.id);
      for (const id of ofRole) mark(id, since.get(person));
      return ofRole;
    });
  };
  /** The tutors caring for the schools' students, each marked with its students' latest change. */
  const tutors = async () => {
    const students = await rolesOf('students', personsAs('students'));
    const caring = await records.tutorsOf(students);
    for (const [student, tutorIds] of caring) for (const tutor of tutorIds) mark(tutor, since.get(student));
    return [...new Set([...caring.values()].flat())];
  };

  if (group === 'classes') for (const id of classIds) ids.add(id);
  if (group === 'courses') {
    for (const facts of classes.values()) {
      ids.add(facts.courseId);
      mark(facts.courseId, facts.updatedAt);
    }
  }
  if (group === 'academic_sessions') await sessionsOf(classes.values(), records, ids, mark, since);
  if (group === 'enrollments') {
    for (const facts of classes.values()) for (const entry of facts.entries) ids.add(entry.enrollmentId);
  }
  if (group === 'students' || group === 'teachers') {
    for (const id of await rolesOf(group, personsAs(group))) ids.add(id);
  }
  if (group === 'tutors') for (const id of await tutors()) ids.add(id);
  if (group === 'entities') {
    for (const school of schools) ids.add(school);
    for (const person of persons) ids.add(person);
    for (const tutor of (await records.getMany('tutors', await tutors())).values()) {
      ids.add(tutor.entity_id);
      persons.add(tutor.entity_id);
      mark(tutor.entity_id, since.get(tutor.tutor_id));
    }
  }

  const inGroup = [...ids].sort();
  const kept = new Map(inGroup.flatMap((id) => (since.has(id) ? [[id, since.get(id) as string]] : [])));
  const changes = [
    ...kept.values(),
    ...[...classes.values()].flatMap((facts) => [facts.updatedAt, facts.enrolledAt ?? '']),
  ].filter((at) => at !== '');
  return { ids: inGroup, since: kept, changedAt: changes.sort().at(-1), classIds, persons };
}

/** The terms of the schools' classes and the sessions above them (a school year), each marked with its classes' change. */
async function sessionsOf(
  classes: Iterable<{ termIds: string[]; updatedAt: string }>,
  records: RecordRepository,
  ids: Set<string>,
  mark: (id: string, at: string | undefined) => void,
  since: ReadonlyMap<string, string>,
) {
  let next: string[] = [];
  for (const facts of classes) {
    for (const term of facts.termIds) {
      mark(term, facts.updatedAt);
      if (!ids.has(term)) next.push(term);
      ids.add(term);
    }
  }
  while (next.length > 0) {
    const sessions = await records.getMany('academic_sessions', next);
    next = [];
    for (const session of sessions.values()) {
      const parent = session.parent_id;
      if (!parent) continue;
      mark(parent, since.get(session.academic_session_id));
      if (!ids.has(parent)) next.push(parent);
      ids.add(parent);
    }
  }
}

/** The partitions a school-scoped read of `group` consults to find what the schools hold (for its IAM grants). */
export function schoolSources(group: RecordGroup): string[] {
  if (heldByNoSchool.includes(group)) return [];
  const extra: Partial<Record<RecordGroup, RecordGroup[]>> = {
    students: ['entities'],
    teachers: ['entities'],
    tutors: ['entities', 'students'],
    entities: ['entities', 'students', 'tutors'],
    academic_sessions: ['academic_sessions'],
  };
  return [
    keys.listingPartition('classes'),
    ...['classes' as const, ...(extra[group] ?? [])].map(keys.recordPartition),
  ];
}

/** How many records of each group a token reads: the tenant's counts, or what its client's schools hold. */
export async function readableCounts(
  schools: readonly string[] | undefined,
  records: RecordRepository,
): Promise<Record<RecordGroup, number>> {
  if (!schools) return records.counts();
  const sizes = await Promise.all(
    recordGroups.map(
      async (group) => [group, (await schoolScope(schools, group, records)).ids.length] as const,
    ),
  );
  return Object.fromEntries(sizes) as Record<RecordGroup, number>;
}
