// What a client registered with `schools` may read of a record group (docs/sso.md, "School scoping"): the
// records tied to those schools through their classes. A school's classes are a range of the classes'
// listing; each class names its course and terms and lists its enrollments (role and person), so the
// school's records are found from those few items and the people's roles, never from a group's partition.
// Read on every request, as a person's reach is, since enrollments and care change while a token lives: a
// request costs what the schools have, as `/schools/{id}/students` does, whatever the district's size.
import { keys } from '../data/keys';
import { isClassWork, isStudentWork } from '../data/listings';
import type { ClassFacts, RecordRepository } from '../data/record-repository';
import { type GroupDescription, groups, type RecordGroup, recordGroups, roleName } from '../domain/groups';
import type { EntityRole } from '../schemas/records';

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

/**
 * Whether a school-scoped client reads the group whole, as any reader does: records the tenant's schools
 * share and that hold nobody's data (`schoolWide` in groups.ts). It changes none of them.
 */
export const sharedBySchools = (group: RecordGroup): boolean =>
  (groups[group] as GroupDescription).schoolWide === true;

/**
 * A staff record names no school: no school holds one. Nor does one hold an assessment or its results:
 * an assessment is the district's, of a class or of none, and a client registered with schools reads
 * and writes none of them (docs/sso.md).
 */
const heldByNoSchool: readonly RecordGroup[] = ['staffs', 'assessment_line_items', 'assessment_results'];

/**
 * Whether a group's records each belong to one class, which their `class_id` names (an enrollment, a line
 * item): the schools hold them with the class, and a client of those schools makes them only there. A
 * group the schools share is not, though a record of it may name a class (a class's own score scale).
 */
export const ofOneClass = (group: RecordGroup): boolean =>
  !sharedBySchools(group) &&
  !heldByNoSchool.includes(group) &&
  (groups[group] as GroupDescription).references.some(
    (reference) => reference.field === 'class_id' && reference.group === 'classes',
  );

/** The role group an enrollment's role makes a person part of: students, or teachers for every other role. */
export const enrolledGroup = (role: string): RecordGroup => (role === 'student' ? 'students' : 'teachers');

/**
 * What a request finds of the schools, read once however many groups it asks about (a OneRoster page of
 * users asks about five): their classes with their enrollment lists, the enrolled people's roles, and
 * their students' guardians. Made per request, never kept across requests: enrollments and care change
 * while a token lives, and a changes feed must see every change that brought a record in.
 */
export class SchoolHoldings {
  private classes: Promise<{ classIds: string[]; facts: Map<string, ClassFacts> }> | undefined;
  private listed: Promise<{ classIds: string[]; facts: Map<string, ClassFacts> }> | undefined;
  private readonly roles = new Map<string, Promise<{ roles: EntityRole[] } | undefined>>();
  private readonly caring = new Map<string, Promise<string[] | undefined>>();
  private readonly scopes = new Map<RecordGroup, Promise<SchoolScope>>();

  constructor(
    readonly schools: readonly string[],
    readonly records: RecordRepository,
  ) {}

  /** The records of `group` the schools hold (the rule of docs/sso.md), with what ties each to them. */
  of(group: RecordGroup): Promise<SchoolScope> {
    let found = this.scopes.get(group);
    if (!found) {
      found = scopeOf(this, group);
      this.scopes.set(group, found);
    }
    return found;
  }

  /** The schools' classes and what each says; with `enrollments`, their enrollment lists too. */
  classFacts(enrollments: boolean): Promise<{ classIds: string[]; facts: Map<string, ClassFacts> }> {
    if (this.listed) return this.listed;
    if (!enrollments && this.classes) return this.classes;
    const read = (async () => {
      const classIds = await this.records.classIdsOfSchools(this.schools);
      return { classIds, facts: await this.records.classFacts(classIds, enrollments) };
    })();
    if (enrollments) this.listed = read;
    else this.classes = read;
    return read;
  }

  /** The roles of these persons, each read once a request however many groups ask for it. */
  rolesOf(persons: readonly string[]): Promise<Map<string, { roles: EntityRole[] }>> {
    return readOnce(this.roles, persons, (unread) => this.records.rolesOfEntities(unread));
  }

  /**
   * Which of these ids of the group the schools hold, by the same rule as `of`, read from the records
   * themselves (their classes' schools, a person's enrollment list, a guardian's students) rather than
   * from all the schools hold: a get or a page costs what its ids need. Where this request has found the
   * group's whole set already, that is used.
   */
  async held(group: RecordGroup, ids: readonly string[]): Promise<Set<string>> {
    const known = this.scopes.get(group);
    if (known || group === 'courses' || group === 'academic_sessions') {
      const readable = new Set((await this.of(group)).ids);
      return new Set(ids.filter((id) => readable.has(id)));
    }
    if (ids.length === 0 || heldByNoSchool.includes(group)) return new Set();
    const { records } = this;
    const inSchools = async (classIds: Iterable<string>) => {
      const schoolOf = await records.schoolsOfClasses([...new Set(classIds)]);
      return new Set([...schoolOf].filter(([, school]) => this.schools.includes(school)).map(([id]) => id));
    };
    if (group === 'classes') return inSchools(ids);
    if (ofOneClass(group)) {
      // A record of no class (a whole day's attendance) is held by no school.
      const classOf = new Map(
        [...(await records.getMany(group, ids))].flatMap(([id, r]) => {
          const classId = (r as { class_id: string | null }).class_id;
          return classId === null ? [] : [[id, classId] as const];
        }),
      );
      const classes = await inSchools(classOf.values());
      return new Set(ids.filter((id) => classes.has(classOf.get(id) ?? '')));
    }
    /** The persons among these enrolled in the schools' classes, with a role of `as` when it is given. */
    const enrolled = async (persons: readonly string[], as?: RecordGroup) => {
      const lists = await records.enrollmentLists('entities', persons);
      const entries = [...lists].flatMap(([person, list]) =>
        list.entries
          .filter((e) => as === undefined || enrolledGroup(e.role) === as)
          .map((e) => ({ person, e })),
      );
      const classes = await inSchools(entries.map(({ e }) => e.otherId));
      return new Set(entries.filter(({ e }) => classes.has(e.otherId)).map(({ person }) => person));
    };
    /** The tutors among these caring for a student the schools hold. */
    const caring = async (tutorIds: readonly string[]) => {
      const tutors = await records.getMany('tutors', tutorIds);
      const students = [...new Set([...tutors.values()].flatMap((t) => t.student_ids))];
      const heldStudents = await this.held('students', students);
      return new Set(
        [...tutors].filter(([, t]) => t.student_ids.some((s) => heldStudents.has(s))).map(([id]) => id),
      );
    };
    if (group === 'students' || group === 'teachers') {
      const roleRecords = await records.getMany(group, ids);
      const persons = await enrolled([...new Set([...roleRecords.values()].map((r) => r.entity_id))], group);
      return new Set(ids.filter((id) => persons.has(roleRecords.get(id)?.entity_id ?? '')));
    }
    if (group === 'tutors') return caring(ids);
    // Entities: the schools themselves, the persons enrolled there, and their students' guardians.
    const persons = ids.filter((id) => !this.schools.includes(id));
    const enrolledThere = await enrolled(persons);
    const others = persons.filter((id) => !enrolledThere.has(id));
    const roles = await records.rolesOfEntities(others);
    const tutorOf = new Map(
      [...roles].flatMap(([person, e]) =>
        e.roles.filter((r) => r.role === 'tutor').map((r) => [r.id, person] as const),
      ),
    );
    const guardians = new Set(
      [...(await caring([...tutorOf.keys()]))].map((tutor) => tutorOf.get(tutor) as string),
    );
    return new Set(
      ids.filter((id) => this.schools.includes(id) || enrolledThere.has(id) || guardians.has(id)),
    );
  }

  /** The tutors of these students, each student's read once a request. */
  tutorsOf(students: readonly string[]): Promise<Map<string, string[]>> {
    return readOnce(this.caring, students, (unread) => this.records.tutorsOf(unread));
  }
}

/**
 * The values of these ids, reading in one call only those no earlier call of the request has asked for;
 * an id the read does not find is left out.
 */
async function readOnce<V>(
  cache: Map<string, Promise<V | undefined>>,
  ids: readonly string[],
  read: (unread: string[]) => Promise<Map<string, V>>,
): Promise<Map<string, V>> {
  const unread = [...new Set(ids.filter((id) => !cache.has(id)))];
  if (unread.length > 0) {
    const reading = read(unread);
    for (const id of unread)
      cache.set(
        id,
        reading.then((found) => found.get(id)),
      );
  }
  const found = await Promise.all(ids.map(async (id) => [id, await cache.get(id)] as const));
  return new Map(found.flatMap(([id, value]) => (value === undefined ? [] : [[id, value] as const])));
}

/** The records of `group` the schools hold (the rule of docs/sso.md), with what ties each to them. */
export function schoolScope(
  schools: readonly string[],
  group: RecordGroup,
  records: RecordRepository,
): Promise<SchoolScope> {
  return new SchoolHoldings(schools, records).of(group);
}

async function scopeOf(holdings: SchoolHoldings, group: RecordGroup): Promise<SchoolScope> {
  const { schools, records } = holdings;
  if (heldByNoSchool.includes(group)) {
    return { ids: [], since: new Map(), changedAt: undefined, classIds: [], persons: new Set() };
  }
  const { classIds, facts: classes } = await holdings.classFacts(heldThroughEnrollments.includes(group));
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
    const entities = await holdings.rolesOf(people);
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
    const caring = await holdings.tutorsOf(students);
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
  if (group === 'line_items') {
    for (const [classId, lineItems] of await records.lineItemsOfClasses(classIds)) {
      for (const id of lineItems) {
        ids.add(id);
        mark(id, classes.get(classId)?.updatedAt);
      }
    }
  }
  if (isStudentWork(group)) {
    for (const entry of await records.studentWorkOfClasses(
      group,
      classIds.map((classId) => ({ classId })),
    )) {
      ids.add(entry.recordId);
      mark(entry.recordId, classes.get(entry.classId)?.updatedAt);
    }
  }
  if (group === 'entities') {
    for (const school of schools) ids.add(school);
    for (const person of persons) ids.add(person);
    for (const [tutor, entityId] of await records.entityIdsOf('tutors', await tutors())) {
      ids.add(entityId);
      persons.add(entityId);
      mark(entityId, since.get(tutor));
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
  if (heldByNoSchool.includes(group) || sharedBySchools(group)) return [];
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
    ...(isClassWork(group) ? [keys.listingPartition(group)] : []),
  ];
}

/** The partitions `SchoolHoldings.held` reads to tell whether the schools hold some records of `group` (for IAM grants). */
export function schoolHeldSources(group: RecordGroup): string[] {
  if (group === 'courses' || group === 'academic_sessions') return schoolSources(group);
  const through: Record<RecordGroup, RecordGroup[]> = {
    staffs: [],
    courses: [],
    academic_sessions: [],
    categories: [],
    score_scales: [],
    classes: ['classes'],
    enrollments: ['enrollments', 'classes'],
    line_items: ['line_items', 'classes'],
    results: ['results', 'classes'],
    attendance: ['attendance', 'classes'],
    assessment_line_items: [],
    assessment_results: [],
    students: ['students', 'entities', 'classes'],
    teachers: ['teachers', 'entities', 'classes'],
    tutors: ['tutors', 'students', 'entities', 'classes'],
    entities: ['entities', 'tutors', 'students', 'classes'],
  };
  return through[group].map(keys.recordPartition);
}

/** How many records of each group a token reads: the tenant's counts, or what its client's schools hold. */
export async function readableCounts(
  schools: readonly string[] | undefined,
  records: RecordRepository,
): Promise<Record<RecordGroup, number>> {
  if (!schools) return records.counts();
  const holdings = new SchoolHoldings(schools, records);
  const shared = recordGroups.some(sharedBySchools) ? await records.counts() : undefined;
  const sizes = await Promise.all(
    recordGroups.map(
      async (group) =>
        [
          group,
          shared && sharedBySchools(group) ? shared[group] : (await holdings.of(group)).ids.length,
        ] as const,
    ),
  );
  return Object.fromEntries(sizes) as Record<RecordGroup, number>;
}
