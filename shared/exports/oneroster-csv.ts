// The OneRoster CSV 1.2.1 bulk zip of an export run: manifest.csv and one table per rostering and
// gradebook object (the gradebook's in oneroster-gradebook-csv.ts), built from the run's own NDJSON
// files (the same snapshot as the rest of the run) through the objects the REST binding serves
// (shared/oneroster/objects.ts), so CSV and REST agree field for field. Every reference between the
// tables names a row of the zip: rows that would dangle are left out. What the tables need of each other
// is read first (RosterIndex: ids and a few fields a person); then each table is made from its records
// read again and compressed into the zip as it goes, so memory holds neither a group nor a table.
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { idFields, roleGroups } from '../domain/groups';
import { type Affiliations, affiliationsOf, type EnrolledIn } from '../oneroster/affiliations';
import { ObjectMaker, type OneRosterOrg, oneRosterRoles, rootOrganisation } from '../oneroster/objects';
import type {
  AcademicSession,
  Class,
  Course,
  Entity,
  Staff,
  Student,
  Teacher,
  Tutor,
} from '../schemas/records';
import { csvLine } from './csv';
import {
  type GradebookContext,
  type GradebookIndex,
  gradebookHeaders,
  gradebookTables,
  indexGradebook,
} from './oneroster-gradebook-csv';
import { type DatedRow, type RosterSource, type Row, type Rows, rowsOf, rowsRead } from './roster-source';

export const ONEROSTER_ZIP_NAME = 'oneroster-csv.zip';

/** The binding's column headers, in the binding's order (OneRoster 1.2 CSV Tables, section 3). */
export const oneRosterHeaders = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'startDate',
    'endDate',
    'parentSourcedId',
    'schoolYear',
  ],
  courses: [
    'sourcedId',
    'status',
    'dateLastModified',
    'schoolYearSourcedId',
    'title',
    'courseCode',
    'grades',
    'orgSourcedId',
    'subjects',
    'subjectCodes',
  ],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
    'subjects',
    'subjectCodes',
    'periods',
  ],
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'username',
    'userIds',
    'givenName',
    'familyName',
    'middleName',
    'identifier',
    'email',
    'sms',
    'phone',
    'agentSourcedIds',
    'grades',
    'password',
    'userMasterIdentifier',
    'resourceSourcedIds',
    'preferredGivenName',
    'preferredMiddleName',
    'preferredFamilyName',
    'primaryOrgSourcedId',
    'pronouns',
  ],
  roles: [
    'sourcedId',
    'status',
    'dateLastModified',
    'userSourcedId',
    'roleType',
    'role',
    'beginDate',
    'endDate',
    'orgSourcedId',
    'userProfileSourcedId',
  ],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
  demographics: [
    'sourcedId',
    'status',
    'dateLastModified',
    'birthDate',
    'sex',
    'americanIndianOrAlaskaNative',
    'asian',
    'blackOrAfricanAmerican',
    'nativeHawaiianOrOtherPacificIslander',
    'white',
    'demographicRaceTwoOrMoreRaces',
    'hispanicOrLatinoEthnicity',
    'countryOfBirthCode',
    'stateOfBirthAbbreviation',
    'cityOfBirth',
    'publicSchoolResidenceStatus',
  ],
  ...gradebookHeaders,
} as const;

export type OneRosterTable = keyof typeof oneRosterHeaders;
export const oneRosterTables = Object.keys(oneRosterHeaders) as OneRosterTable[];

/** Every file the binding's manifest names; those this service does not write are `absent`. */
const manifestFiles = [
  'academicSessions',
  'categories',
  'classes',
  'classResources',
  'courses',
  'courseResources',
  'demographics',
  'enrollments',
  'lineItemLearningObjectiveIds',
  'lineItems',
  'lineItemScoreScales',
  'orgs',
  'resources',
  'resultLearningObjectiveIds',
  'results',
  'resultScoreScales',
  'roles',
  'scoreScales',
  'userProfiles',
  'userResources',
  'users',
] as const;

type Person = Student | Teacher | Tutor | Staff;

/** What a person's first role record (where birth date and gender live) gives their user and demographics. */
export type FirstRole = Pick<Person, 'processnumber' | 'birth_date' | 'gender' | 'naturality' | 'updated_at'>;

/**
 * What the tables need of one user, by entity id: one small object a person, its ids the very strings
 * the index's maps hold already, so that a district's index costs a few hundred bytes a person.
 */
export interface UserFacts {
  /** Whether one of their role records is active (`ative`): a user is enabled while one of theirs is. */
  enabled: boolean;
  /** The id of their first role record, where birth date and gender live. */
  firstRoleId: string;
  /** That record's FirstRole fields, each as JSON, comma-separated (firstRoleOf reads them); none if unread. */
  first: string | undefined;
  /** Their enrollments in the classes of the zip, each a role at a school: one list for all enrolled alike. */
  enrolled: EnrolledIn[] | undefined;
  /** A guardian's students, as users: their agents. */
  students: string[] | undefined;
  /** A student's guardians, as users. */
  guardians: string[] | undefined;
}

/** The FirstRole fields in the order UserFacts.first packs them. */
const firstRoleFields = ['processnumber', 'birth_date', 'gender', 'naturality', 'updated_at'] as const;

/** A user's first role record's fields, as the index keeps them. */
export function firstRoleOf(facts: UserFacts | undefined): FirstRole | undefined {
  if (facts?.first === undefined) return undefined;
  const values = JSON.parse(`[${facts.first}]`) as unknown[];
  // A field the record lacks is packed as null (the schemas allow none), and read back as absent.
  return Object.fromEntries(
    firstRoleFields.flatMap((field, i) => (values[i] === null ? [] : [[field, values[i]]])),
  ) as unknown as FirstRole;
}

/**
 * What the tables need of each other, read once before any is written: the organisations, sessions,
 * courses and classes whole (a few thousand in a district), and of people and the gradebook only ids
 * and a few fields each. The people themselves, their enrollments, line items and results are read again
 * as their tables are written, so memory grows with a few hundred bytes a person, never with records.
 */
export interface RosterIndex extends GradebookContext, GradebookIndex {
  organisations: Entity[];
  orgIds: ReadonlySet<string>;
  /** The tenant's root organisation; without one, no user's roles have an org, and there are no users. */
  root: Entity | undefined;
  /**
   * The users of the zip (persons with at least one role) and what the tables need of each, by entity
   * id. An enrollment's class is already its school, one entry a role and school: all that
   * affiliationsOf reads of them.
   */
  users: ReadonlyMap<string, UserFacts>;
  sessions: AcademicSession[];
  courses: ReadonlyMap<string, Course>;
  /** Each person's sign-in username, for those with an account, by entity_id. */
  usernames: ReadonlyMap<string, string>;
  /** The role records changed after a delta's start (oneroster-delta.ts), with when, by id; none without one. */
  changedRoles: ReadonlyMap<string, string>;
}

/** The lists no table reads, emptied. */
const withoutLists = { addresses: [], contacts: [], documents: [], bankAccounts: [] };

/** The list with the value added: a new one when there was none. */
function added<T>(values: T[] | undefined, value: T): T[] {
  if (!values) return [value];
  values.push(value);
  return values;
}

/**
 * Reads the run's records once for what the tables need of each other (RosterIndex). recordGroups lists
 * entities before the role groups, and classes before enrollments and the gradebook, as this reads them.
 */
export async function indexRoster(
  read: RosterSource,
  usernames: ReadonlyMap<string, string>,
  changedSince?: string,
): Promise<RosterIndex> {
  const organisations: Entity[] = [];
  const roleOwners = new Map<string, string>();
  const users = new Map<string, UserFacts>();
  for await (const entity of read('entities')) {
    if (entity.entity_type === 'organisation') organisations.push({ ...entity, ...withoutLists });
    else if (entity.roles.length > 0) {
      for (const { id } of entity.roles) roleOwners.set(id, entity.entity_id);
      users.set(entity.entity_id, {
        enabled: false,
        firstRoleId: (entity.roles[0] as { id: string }).id,
        first: undefined,
        enrolled: undefined,
        students: undefined,
        guardians: undefined,
      });
    }
  }
  const root = rootOrganisation(organisations);
  // Without a root organisation, no user's roles have an org: the zip has no users.
  if (!root) {
    roleOwners.clear();
    users.clear();
  }

  const since = changedSince === undefined ? undefined : Date.parse(changedSince);
  const changedRoles = new Map<string, string>();
  for (const group of roleGroups) {
    for await (const record of read(group)) {
      const id = (record as unknown as Record<string, string>)[idFields[group]] as string;
      const owner = roleOwners.get(id);
      const facts = owner === undefined ? undefined : users.get(owner);
      const person = record as Person;
      if (since !== undefined && Date.parse(person.updated_at) > since)
        changedRoles.set(id, person.updated_at);
      if (!facts) continue;
      if (group === 'tutors') {
        for (const student of (record as Tutor).student_ids) {
          const studentUser = roleOwners.get(student);
          if (studentUser === undefined) continue;
          facts.students = added(facts.students, studentUser);
          const ofStudent = users.get(studentUser) as UserFacts;
          ofStudent.guardians = added(ofStudent.guardians, owner as string);
        }
      }
      if (person.ative) facts.enabled = true;
      // Joined, not one JSON.stringify of the array: V8 makes that a rope of parts, some 50 bytes more.
      if (id === facts.firstRoleId)
        facts.first = firstRoleFields.map((field) => JSON.stringify(person[field] ?? null)).join(',');
    }
  }

  const orgIds = new Set(organisations.map((e) => e.entity_id));
  const sessions: AcademicSession[] = [];
  for await (const session of read('academic_sessions')) sessions.push(session);
  const sessionIds = new Set(sessions.map((s) => s.academic_session_id));
  const courses = new Map<string, Course>();
  for await (const course of read('courses'))
    if (orgIds.has(course.org_id)) courses.set(course.course_id, course);
  const classes = new Map<string, { cls: Class; terms: string[] }>();
  for await (const cls of read('classes')) {
    const terms = cls.term_ids.filter((id) => sessionIds.has(id));
    if (courses.has(cls.course_id) && orgIds.has(cls.school_id) && terms.length > 0)
      classes.set(cls.class_id, { cls, terms });
  }
  // Users enrolled with the same roles at the same schools (most students of a school) share one list.
  const lists = new Map<string, EnrolledIn[]>();
  const listKey = (list: readonly EnrolledIn[]) => list.map((e) => `${e.role}#${e.classId}`).join(' ');
  for await (const { entity_id, class_id, role } of read('enrollments')) {
    const school = classes.get(class_id)?.cls.school_id;
    const facts = users.get(entity_id);
    if (school === undefined || !facts) continue;
    const known = facts.enrolled ?? [];
    if (known.some((e) => e.role === role && e.classId === school)) continue;
    const list = [...known, { role, classId: school }];
    const key = listKey(list);
    const shared = lists.get(key) ?? list;
    lists.set(key, shared);
    facts.enrolled = shared;
  }
  const context = { maker: new ObjectMaker('', root?.entity_id ?? ''), classes, sessionIds, roleOwners };
  return {
    ...context,
    ...(await indexGradebook(read, context)),
    organisations,
    orgIds,
    root,
    users,
    sessions,
    courses,
    usernames,
    changedRoles,
  };
}

/** The later of two instants, either may be missing. */
const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : Date.parse(a) >= Date.parse(b) ? a : b;

/** A list field: comma-separated values, quoted as one cell by csvLine when it holds a comma. */
const list = (values: readonly string[]) => values.join(',');

/**
 * Every table's rows, with when what each says last changed, made from the records as they are read
 * again. A row whose required reference would name no row of the zip is left out, and so are the rows
 * that depend on it: a course of an org not exported, a class without its course, school or any of its
 * terms, an enrollment of a class left out or of a person without roles; users when the tenant has no
 * organisation for their roles to be at.
 */
export function rosterTables(index: RosterIndex, read: RosterSource): Record<OneRosterTable, Rows<DatedRow>> {
  const { maker, organisations, orgIds, sessions, sessionIds, courses, classes, users: userFacts } = index;
  const known = (ids: ReadonlySet<string>, id: string | undefined) => (id && ids.has(id) ? id : undefined);
  /** The users of the zip, a record at a time, each with what the index keeps of them. */
  const users = (rows: (e: Entity, facts: UserFacts) => DatedRow[]) =>
    rowsRead(read, 'entities', (e) => {
      const facts = userFacts.get(e.entity_id);
      return facts ? rows(e, facts) : [];
    });
  const enrolledAt = (entityId: string) => userFacts.get(entityId)?.enrolled ?? [];
  /** A user's affiliations: their schools by role (the index's enrollments name schools), and agents. */
  const affiliations = (e: Entity, facts: UserFacts): Affiliations =>
    affiliationsOf(
      e.roles.map((r) => r.role),
      { enrollments: facts.enrolled ?? [], students: facts.students ?? [], guardians: facts.guardians ?? [] },
      (school) => school,
      enrolledAt,
    );
  const org = (o: OneRosterOrg): Row => ({
    sourcedId: o.sourcedId,
    name: o.name,
    type: o.type,
    identifier: o.identifier,
    parentSourcedId: known(orgIds, o.parent?.sourcedId),
  });
  return {
    orgs: rowsOf(organisations, (e) => ({ row: org(maker.org(e, organisations)), at: e.updated_at })),
    academicSessions: rowsOf(sessions, (s) => {
      const o = maker.academicSession(s, sessions);
      const row = {
        sourcedId: o.sourcedId,
        title: o.title,
        type: o.type,
        startDate: o.startDate,
        endDate: o.endDate,
        parentSourcedId: known(sessionIds, o.parent?.sourcedId),
        schoolYear: o.schoolYear,
      };
      return { row, at: s.updated_at };
    }),
    courses: rowsOf([...courses.values()], (c) => {
      const o = maker.course(c);
      const row = {
        sourcedId: o.sourcedId,
        title: o.title,
        courseCode: o.courseCode,
        grades: list(o.grades),
        orgSourcedId: o.org.sourcedId,
        subjects: list(o.subjects),
      };
      return { row, at: c.updated_at };
    }),
    classes: rowsOf([...classes.values()], ({ cls, terms }) => {
      const o = maker.class(cls, courses.get(cls.course_id));
      const row = {
        sourcedId: o.sourcedId,
        title: o.title,
        grades: list(o.grades),
        courseSourcedId: o.course.sourcedId,
        classCode: o.classCode,
        classType: o.classType,
        location: o.location,
        schoolSourcedId: o.school.sourcedId,
        termSourcedIds: list(terms),
        subjects: list(o.subjects),
        periods: list(o.periods),
      };
      return { row, at: cls.updated_at };
    }),
    users: users((e, facts) => {
      const o = maker.user(e, facts.enabled, affiliations(e, facts));
      const row = {
        sourcedId: o.sourcedId,
        enabledUser: o.enabledUser,
        // The binding requires a username: the sign-in one, else the e-mail address (never empty natively).
        username: index.usernames.get(e.entity_id) ?? (o.email || o.sourcedId),
        userIds: list(o.userIds.map((u) => `{${u.type}:${u.identifier}}`)),
        givenName: o.givenName,
        familyName: o.familyName,
        // The school's own number for the person: their first role record's processnumber.
        identifier: firstRoleOf(facts)?.processnumber,
        email: o.email,
        agentSourcedIds: list(o.agents.map((a) => a.sourcedId)),
        primaryOrgSourcedId: o.primaryOrg.sourcedId,
      };
      return [{ row, at: e.updated_at }];
    }),
    // A role's sourcedId is the native role record's id: each role of a person is its own record, at the
    // first of its schools (an import reads each row as a role record; the REST user lists every school).
    // It changes with its record or with its user (its org is the user's school).
    roles: users((e, facts) => {
      const { schools } = affiliations(e, facts);
      return e.roles.map(({ role, id }, i) => ({
        row: {
          sourcedId: id,
          userSourcedId: e.entity_id,
          roleType: i === 0 ? 'primary' : 'secondary',
          role: oneRosterRoles[role],
          orgSourcedId: schools[role]?.[0] ?? index.root?.entity_id,
        },
        at: later(index.changedRoles.get(id), e.updated_at) as string,
      }));
    }),
    enrollments: rowsRead(read, 'enrollments', (enrollment) => {
      const cls = classes.get(enrollment.class_id)?.cls;
      if (!cls || !userFacts.has(enrollment.entity_id)) return [];
      const o = maker.enrollment(enrollment, cls);
      const row = {
        sourcedId: o.sourcedId,
        classSourcedId: o.class.sourcedId,
        schoolSourcedId: o.school.sourcedId,
        userSourcedId: o.user.sourcedId,
        role: o.role,
        primary: o.primary,
        beginDate: o.beginDate,
        endDate: o.endDate,
      };
      return [{ row, at: enrollment.updated_at }];
    }),
    // Demographics come from the entity and its first role record, as the REST binding's dateLastModified.
    demographics: users((e, facts) => {
      const person = firstRoleOf(facts);
      if (!person) return [];
      const o = maker.demographics(e, person);
      const row = { sourcedId: o.sourcedId, birthDate: o.birthDate, sex: o.sex, cityOfBirth: o.cityOfBirth };
      return [{ row, at: later(e.updated_at, person.updated_at) as string }];
    }),
    ...gradebookTables(read, index, index),
  };
}

/** A value for each table. */
export const byTable = <T>(make: (table: OneRosterTable) => T): Record<OneRosterTable, T> =>
  Object.fromEntries(oneRosterTables.map((table) => [table, make(table)])) as Record<OneRosterTable, T>;

/** A bulk zip's rows: status and dateLastModified blank. */
export const bulkRows = (tables: Record<OneRosterTable, Rows<DatedRow>>): Record<OneRosterTable, Rows<Row>> =>
  byTable(
    (table) =>
      async function* () {
        for await (const { row } of tables[table]()) yield row;
      },
  );

/**
 * manifest.csv: the binding's propertyName/value rows. A table with rows is `bulk` (or `delta`, in a
 * delta zip); one without is `absent` and not in the zip, as is every file this service does not write.
 */
export function manifestCsv(
  written: ReadonlySet<string>,
  source: { systemName: string; systemCode: string },
  mode: 'bulk' | 'delta' = 'bulk',
): string {
  const rows: [string, string][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...manifestFiles.map((f): [string, string] => [`file.${f}`, written.has(f) ? mode : 'absent']),
    ['source.systemName', source.systemName],
    ['source.systemCode', source.systemCode],
  ];
  return [['propertyName', 'value'], ...rows].map((cells) => csvLine(cells)).join('');
}

const headerOf = (table: OneRosterTable) => oneRosterHeaders[table] as readonly string[];
const rowLine = (header: readonly string[], row: Row) => csvLine(header.map((h) => row[h] ?? ''));

export function tableCsv(table: OneRosterTable, rows: readonly Row[]): string {
  const header = headerOf(table);
  return [csvLine([...header]), ...rows.map((row) => rowLine(header, row))].join('');
}

/** A fixed modification time keeps the zip's bytes a function of the records alone. */
const ZIP_MTIME = new Date('2026-01-01T00:00:00Z');
/** CSV gathered to about this many characters before it is compressed. */
const CHUNK_CHARS = 64 * 1024;

export interface OneRosterZip {
  /** The zip's bytes, made as they are read: a table at a time, a chunk of rows at a time. */
  chunks: AsyncIterable<Uint8Array>;
  /** Each table's row count, whole once `chunks` is read to its end. */
  tables: Record<OneRosterTable, number>;
}

/**
 * A OneRoster zip of these tables: those with rows, then its manifest. It holds a chunk of CSV and
 * what the compressor keeps, never a table.
 */
export function oneRosterZip(
  rows: Record<OneRosterTable, Rows<Row>>,
  source: { systemName: string; systemCode: string },
  mode: 'bulk' | 'delta',
): OneRosterZip {
  const tables = byTable(() => 0);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const made: Uint8Array[] = [];
    let failure: Error | undefined;
    const zip = new Zip((error, data) => {
      if (error) failure = error;
      else made.push(data);
    });
    const taken = () => {
      if (failure) throw failure;
      return made.splice(0);
    };
    const file = (name: string) => {
      const entry = new ZipDeflate(name, { level: 6 });
      entry.mtime = ZIP_MTIME;
      zip.add(entry);
      return entry;
    };
    for (const table of oneRosterTables) {
      const header = headerOf(table);
      let entry: ZipDeflate | undefined;
      let text = '';
      for await (const row of rows[table]()) {
        if (!entry) {
          entry = file(`${table}.csv`);
          text = csvLine([...header]);
        }
        text += rowLine(header, row);
        tables[table] += 1;
        if (text.length >= CHUNK_CHARS) {
          entry.push(strToU8(text));
          text = '';
          yield* taken();
        }
      }
      if (entry) {
        entry.push(strToU8(text), true);
        yield* taken();
      }
    }
    const written = new Set(oneRosterTables.filter((table) => tables[table] > 0));
    file('manifest.csv').push(strToU8(manifestCsv(written, source, mode)), true);
    zip.end();
    yield* taken();
  }
  return { chunks: chunks(), tables };
}
