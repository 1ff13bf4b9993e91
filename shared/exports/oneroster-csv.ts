// The OneRoster CSV 1.2.1 bulk zip of an export run: manifest.csv and one table per rostering and
// gradebook object (the gradebook's in oneroster-gradebook-csv.ts), built from the run's own NDJSON
// files (the same snapshot as the rest of the run) through the objects the REST binding serves
// (shared/oneroster/objects.ts), so CSV and REST agree field for field. Every reference between the
// tables names a row of the zip: rows that would dangle are left out. The records are read a line at a
// time and kept without the fields no table reads (photos, documents, addresses), so memory holds the
// rostering and gradebook records and the tables, not the tenant's people whole.
import type { Readable } from 'node:stream';
import { strToU8, zipSync } from 'fflate';
import { idFields, isRoleGroup, type RecordGroup, recordGroups } from '../domain/groups';
import { type Affiliations, affiliationsOf, type EnrolledIn } from '../oneroster/affiliations';
import { ObjectMaker, type OneRosterOrg, oneRosterRoles, rootOrganisation } from '../oneroster/objects';
import type {
  AcademicSession,
  Class,
  Course,
  Enrollment,
  Entity,
  GroupRecords,
  Staff,
  Student,
  Teacher,
  Tutor,
} from '../schemas/records';
import { csvLine } from './csv';
import { fileNames } from './manifest';
import { ndjsonLines } from './ndjson';
import { type GradebookRecords, gradebookHeaders, gradebookRows } from './oneroster-gradebook-csv';
import type { ExportStore } from './store';

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

export type Row = Partial<Record<string, string>>;
export type Person = Student | Teacher | Tutor | Staff;

/** What the zip is made from: the rostering records, each without the fields no table reads, and the gradebook's. */
export interface RosterRecords extends GradebookRecords {
  /** Organisations, and persons with at least one role. */
  entities: Entity[];
  /** The record of each person's first role (where birth date and gender live), by its id. */
  firstRoles: Map<string, Person>;
  /** Every tutor's students, by tutor_id: a guardian's agents. */
  tutorStudents: Map<string, string[]>;
  /** The ids of the role records that are active (`ative`): a user is enabled while one of theirs is. */
  activeRoles: Set<string>;
  academic_sessions: AcademicSession[];
  courses: Course[];
  classes: Class[];
  enrollments: Enrollment[];
  /** Each person's sign-in username, for those with an account, by entity_id. */
  usernames: ReadonlyMap<string, string>;
  /**
   * The role records changed after a delta's start (oneroster-delta.ts), with when, by id; none for a
   * bulk zip.
   */
  changedRoles: Map<string, string>;
}

/**
 * Every user's affiliations (affiliations.ts) from the records in hand: their enrollments, a guardian's
 * students and, the other way, a student's guardians, each as users of the zip.
 */
function usersAffiliations(
  records: RosterRecords,
  people: readonly Entity[],
  roleOwners: ReadonlyMap<string, string>,
  schoolOf: (classId: string) => string | undefined,
): Map<string, Affiliations> {
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const values = map.get(key);
    if (values) values.push(value);
    else map.set(key, [value]);
  };
  const enrolled = new Map<string, EnrolledIn[]>();
  for (const e of records.enrollments) push(enrolled, e.entity_id, { role: e.role, classId: e.class_id });
  const enrollmentsOf = (entityId: string) => enrolled.get(entityId) ?? [];
  const guardiansOf = new Map<string, string[]>();
  for (const [tutorId, students] of records.tutorStudents) {
    const guardian = roleOwners.get(tutorId);
    if (guardian) for (const student of students) push(guardiansOf, student, guardian);
  }
  const ofRole = (e: Entity, role: string) => e.roles.filter((r) => r.role === role).map((r) => r.id);
  return new Map(
    people.map((e) => {
      const links = {
        enrollments: enrollmentsOf(e.entity_id),
        students: ofRole(e, 'tutor').flatMap((id) =>
          (records.tutorStudents.get(id) ?? []).flatMap((student) => roleOwners.get(student) ?? []),
        ),
        guardians: ofRole(e, 'student').flatMap((id) => guardiansOf.get(id) ?? []),
      };
      const roles = e.roles.map((r) => r.role);
      return [e.entity_id, affiliationsOf(roles, links, schoolOf, enrollmentsOf)] as const;
    }),
  );
}

/** A list field: comma-separated values, quoted as one cell by csvLine when it holds a comma. */
const list = (values: readonly string[]) => values.join(',');

/**
 * The rows of every table from the native records. A bulk file leaves status and dateLastModified blank.
 * A row whose required reference would name no row of the zip is left out, and so are the rows that
 * depend on it: a course of an org not exported, a class without its course, school or any of its
 * terms, an enrollment of a class left out or of a person without roles; users when the tenant has no
 * organisation for their roles to be at.
 */
export function oneRosterRows(records: RosterRecords): Record<OneRosterTable, Row[]> {
  const organisations = records.entities.filter((e) => e.entity_type === 'organisation');
  const orgIds = new Set(organisations.map((e) => e.entity_id));
  const root = rootOrganisation(organisations);
  const people = root ? records.entities.filter((e) => e.entity_type === 'person' && e.roles.length > 0) : [];
  const userIds = new Set(people.map((e) => e.entity_id));
  /** The person each role record is of, by the record's id. */
  const roleOwners = new Map(people.flatMap((e) => e.roles.map((r) => [r.id, e.entity_id] as const)));
  const maker = new ObjectMaker('', root?.entity_id ?? '');
  const sessions = records.academic_sessions;
  const sessionIds = new Set(sessions.map((s) => s.academic_session_id));
  const courses = new Map(records.courses.filter((c) => orgIds.has(c.org_id)).map((c) => [c.course_id, c]));
  const classes = new Map<string, { cls: Class; terms: string[] }>();
  for (const cls of records.classes) {
    const terms = cls.term_ids.filter((id) => sessionIds.has(id));
    if (courses.has(cls.course_id) && orgIds.has(cls.school_id) && terms.length > 0)
      classes.set(cls.class_id, { cls, terms });
  }
  const known = (ids: Set<string>, id: string | undefined) => (id && ids.has(id) ? id : undefined);
  const affiliations = usersAffiliations(records, people, roleOwners, (id) => classes.get(id)?.cls.school_id);
  const gradebook = gradebookRows(records, { maker, classes, sessionIds, roleOwners });

  const org = (o: OneRosterOrg): Row => ({
    sourcedId: o.sourcedId,
    name: o.name,
    type: o.type,
    identifier: o.identifier,
    parentSourcedId: known(orgIds, o.parent?.sourcedId),
  });
  return {
    orgs: organisations.map((e) => org(maker.org(e, organisations))),
    academicSessions: sessions.map((s) => {
      const o = maker.academicSession(s, sessions);
      return {
        sourcedId: o.sourcedId,
        title: o.title,
        type: o.type,
        startDate: o.startDate,
        endDate: o.endDate,
        parentSourcedId: known(sessionIds, o.parent?.sourcedId),
        schoolYear: o.schoolYear,
      };
    }),
    courses: [...courses.values()].map((c) => {
      const o = maker.course(c);
      return {
        sourcedId: o.sourcedId,
        title: o.title,
        courseCode: o.courseCode,
        grades: list(o.grades),
        orgSourcedId: o.org.sourcedId,
        subjects: list(o.subjects),
      };
    }),
    classes: [...classes.values()].map(({ cls, terms }) => {
      const o = maker.class(cls, courses.get(cls.course_id));
      return {
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
    }),
    users: people.map((e) => {
      const o = maker.user(
        e,
        e.roles.some(({ id }) => records.activeRoles.has(id)),
        affiliations.get(e.entity_id),
      );
      return {
        sourcedId: o.sourcedId,
        enabledUser: o.enabledUser,
        // The binding requires a username: the sign-in one, else the e-mail address (never empty natively).
        username: records.usernames.get(e.entity_id) ?? (o.email || o.sourcedId),
        userIds: list(o.userIds.map((u) => `{${u.type}:${u.identifier}}`)),
        givenName: o.givenName,
        familyName: o.familyName,
        // The school's own number for the person: their first role record's processnumber.
        identifier: e.roles[0] && records.firstRoles.get(e.roles[0].id)?.processnumber,
        email: o.email,
        agentSourcedIds: list(o.agents.map((a) => a.sourcedId)),
        primaryOrgSourcedId: o.primaryOrg.sourcedId,
      };
    }),
    // A role's sourcedId is the native role record's id: each role of a person is its own record, at the
    // first of its schools (an import reads each row as a role record; the REST user lists every school).
    roles: people.flatMap((e) =>
      e.roles.map(({ role, id }, i) => ({
        sourcedId: id,
        userSourcedId: e.entity_id,
        roleType: i === 0 ? 'primary' : 'secondary',
        role: oneRosterRoles[role],
        orgSourcedId: affiliations.get(e.entity_id)?.schools[role]?.[0] ?? root?.entity_id,
      })),
    ),
    enrollments: records.enrollments.flatMap((enrollment) => {
      const cls = classes.get(enrollment.class_id)?.cls;
      if (!cls || !userIds.has(enrollment.entity_id)) return [];
      const o = maker.enrollment(enrollment, cls);
      return [
        {
          sourcedId: o.sourcedId,
          classSourcedId: o.class.sourcedId,
          schoolSourcedId: o.school.sourcedId,
          userSourcedId: o.user.sourcedId,
          role: o.role,
          primary: o.primary,
          beginDate: o.beginDate,
          endDate: o.endDate,
        },
      ];
    }),
    demographics: people.flatMap((e) => {
      const person = e.roles[0] && records.firstRoles.get(e.roles[0].id);
      if (!person) return [];
      const o = maker.demographics(e, person);
      return [{ sourcedId: o.sourcedId, birthDate: o.birthDate, sex: o.sex, cityOfBirth: o.cityOfBirth }];
    }),
    ...gradebook,
  };
}

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

export function tableCsv(table: OneRosterTable, rows: readonly Row[]): string {
  const header = oneRosterHeaders[table] as readonly string[];
  return [csvLine([...header]), ...rows.map((row) => csvLine(header.map((h) => row[h] ?? '')))].join('');
}

async function* groupLines(store: ExportStore, group: RecordGroup): AsyncGenerator<unknown> {
  const body: Readable | undefined = await store.read(fileNames.ndjson(group));
  if (!body) throw new Error(`${fileNames.ndjson(group)} was not found after it was written.`);
  for await (const line of ndjsonLines(body)) if (line) yield JSON.parse(line);
}

/** The lists no table reads, emptied. */
const withoutLists = { addresses: [], contacts: [], documents: [], bankAccounts: [] };

/**
 * The groups the CSV binding has no table for: attendance (OneRoster has none), and the assessments,
 * which its REST binding alone carries.
 */
const outsideBinding = ['attendance', 'assessment_line_items', 'assessment_results'] as const;

/** The groups the zip's tables are made from. */
const rosterGroups = recordGroups.filter(
  (group): group is Exclude<RecordGroup, (typeof outsideBinding)[number]> =>
    !(outsideBinding as readonly string[]).includes(group),
);

/**
 * Reads the run's NDJSON files a record at a time, keeping of each only what a table reads: entities
 * without their lists, and of role records only each person's first, without photo and lists.
 */
export async function readRosterRecords(
  store: ExportStore,
  usernames: ReadonlyMap<string, string>,
  changedSince?: string,
): Promise<RosterRecords> {
  const records: RosterRecords = {
    entities: [],
    firstRoles: new Map(),
    tutorStudents: new Map(),
    activeRoles: new Set(),
    academic_sessions: [],
    courses: [],
    classes: [],
    enrollments: [],
    categories: [],
    score_scales: [],
    line_items: [],
    results: [],
    usernames,
    changedRoles: new Map(),
  };
  const since = changedSince === undefined ? undefined : Date.parse(changedSince);
  const firstRoleIds = new Set<string>();
  // recordGroups lists entities before the role groups, so every first role is known when they are read.
  for (const group of rosterGroups) {
    for await (const record of groupLines(store, group)) {
      if (group === 'entities') {
        const entity = record as Entity;
        if (entity.entity_type === 'person' && entity.roles.length === 0) continue;
        if (entity.roles[0]) firstRoleIds.add(entity.roles[0].id);
        records.entities.push({ ...entity, ...withoutLists });
      } else if (isRoleGroup(group)) {
        const id = (record as Record<string, string>)[idFields[group]] as string;
        if (group === 'tutors') records.tutorStudents.set(id, (record as Tutor).student_ids);
        if ((record as Person).ative) records.activeRoles.add(id);
        const { updated_at } = record as Person;
        if (since !== undefined && Date.parse(updated_at) > since) records.changedRoles.set(id, updated_at);
        if (!firstRoleIds.has(id)) continue;
        const person = { ...(record as Person), ...withoutLists, photobase64: '' };
        records.firstRoles.set(id, 'student_ids' in person ? { ...person, student_ids: [] } : person);
      } else {
        (records[group] as GroupRecords[typeof group][]).push(record as GroupRecords[typeof group]);
      }
    }
  }
  return records;
}

/** A OneRoster zip of these tables (those with rows, and its manifest), and each table's row count. */
export function oneRosterZip(
  rows: Record<OneRosterTable, readonly Row[]>,
  source: { systemName: string; systemCode: string },
  mode: 'bulk' | 'delta',
): { zip: Uint8Array; tables: Record<OneRosterTable, number> } {
  const written = new Set(oneRosterTables.filter((table) => rows[table].length > 0));
  const files: Record<string, Uint8Array> = { 'manifest.csv': strToU8(manifestCsv(written, source, mode)) };
  const tables = {} as Record<OneRosterTable, number>;
  for (const table of oneRosterTables) {
    tables[table] = rows[table].length;
    if (written.has(table)) files[`${table}.csv`] = strToU8(tableCsv(table, rows[table]));
  }
  // A fixed modification time keeps the zip's bytes a function of the records alone.
  return { zip: zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') }), tables };
}

/** Reads the run's NDJSON files and returns the bulk zip's bytes and each table's row count. */
export async function buildOneRosterZip(
  store: ExportStore,
  source: { systemName: string; systemCode: string },
  usernames: ReadonlyMap<string, string>,
): Promise<{ zip: Uint8Array; tables: Record<OneRosterTable, number> }> {
  return oneRosterZip(oneRosterRows(await readRosterRecords(store, usernames)), source, 'bulk');
}
