// The OneRoster CSV 1.2.1 bulk zip of an export run: manifest.csv and one table per rostering object,
// built from the run's own NDJSON files (the same snapshot as the rest of the run) through the objects
// the REST binding serves (shared/oneroster/objects.ts), so CSV and REST agree field for field.
// The tables are held in memory while zipped: a rostering tenant's tables are a few MB.
import type { Readable } from 'node:stream';
import { strToU8, zipSync } from 'fflate';
import { idFields, type RecordGroup, recordGroups } from '../domain/groups';
import { ObjectMaker, type OneRosterOrg, oneRosterRoles, rootOrganisation } from '../oneroster/objects';
import type { GroupRecords } from '../schemas/records';
import { csvLine } from './csv';
import { ndjsonLines } from './export-run';
import { fileNames } from './manifest';
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

type Row = Partial<Record<string, string>>;

/** A list field: comma-separated values, quoted as one cell by csvLine when it holds a comma. */
const list = (values: readonly string[]) => values.join(',');

/** The rows of every table from the native records. A bulk file leaves status and dateLastModified blank. */
export function oneRosterRows(
  records: {
    [G in RecordGroup]?: readonly GroupRecords[G][];
  },
): Record<OneRosterTable, Row[]> {
  const entities = records.entities ?? [];
  const organisations = entities.filter((e) => e.entity_type === 'organisation');
  const people = entities.filter((e) => e.entity_type === 'person' && e.roles.length > 0);
  const root = rootOrganisation(entities);
  const maker = new ObjectMaker('', root?.entity_id ?? '');
  const sessions = records.academic_sessions ?? [];
  const courses = new Map((records.courses ?? []).map((c) => [c.course_id, c]));
  const classes = new Map((records.classes ?? []).map((c) => [c.class_id, c]));
  const roleRecords = new Map<string, GroupRecords['students' | 'teachers' | 'tutors' | 'staffs']>();
  for (const group of ['students', 'teachers', 'tutors', 'staffs'] as const)
    for (const person of records[group] ?? [])
      roleRecords.set((person as unknown as Record<string, string>)[idFields[group]] ?? '', person);

  const org = (o: OneRosterOrg): Row => ({
    sourcedId: o.sourcedId,
    name: o.name,
    type: o.type,
    identifier: o.identifier,
    parentSourcedId: o.parent?.sourcedId,
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
        parentSourcedId: o.parent?.sourcedId,
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
    classes: [...classes.values()].map((c) => {
      const o = maker.class(c, courses.get(c.course_id));
      return {
        sourcedId: o.sourcedId,
        title: o.title,
        grades: list(o.grades),
        courseSourcedId: o.course.sourcedId,
        classCode: o.classCode,
        classType: o.classType,
        location: o.location,
        schoolSourcedId: o.school.sourcedId,
        termSourcedIds: list(o.terms.map((t) => t.sourcedId)),
        subjects: list(o.subjects),
        periods: list(o.periods),
      };
    }),
    users: people.map((e) => {
      const o = maker.user(e);
      return {
        sourcedId: o.sourcedId,
        enabledUser: o.enabledUser,
        userIds: list(o.userIds.map((u) => `{${u.type}:${u.identifier}}`)),
        givenName: o.givenName,
        familyName: o.familyName,
        email: o.email,
        primaryOrgSourcedId: o.primaryOrg.sourcedId,
      };
    }),
    // A role's sourcedId is the native role record's id: each role of a person is its own record.
    roles: people.flatMap((e) =>
      e.roles.map(({ role, id }, i) => ({
        sourcedId: id,
        userSourcedId: e.entity_id,
        roleType: i === 0 ? 'primary' : 'secondary',
        role: oneRosterRoles[role],
        orgSourcedId: root?.entity_id ?? '',
      })),
    ),
    enrollments: (records.enrollments ?? []).flatMap((enrollment) => {
      const cls = classes.get(enrollment.class_id);
      if (!cls) return [];
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
      const person = e.roles[0] && roleRecords.get(e.roles[0].id);
      if (!person) return [];
      const o = maker.demographics(e, person);
      return [{ sourcedId: o.sourcedId, birthDate: o.birthDate, sex: o.sex, cityOfBirth: o.cityOfBirth }];
    }),
  };
}

/** manifest.csv: the binding's propertyName/value rows; every table written is a bulk file. */
export function manifestCsv(systemName: string): string {
  const written = new Set<string>(oneRosterTables);
  const rows: [string, string][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...manifestFiles.map((f): [string, string] => [`file.${f}`, written.has(f) ? 'bulk' : 'absent']),
    ['source.systemName', systemName],
    ['source.systemCode', ''],
  ];
  return [['propertyName', 'value'], ...rows].map((cells) => csvLine(cells)).join('');
}

export function tableCsv(table: OneRosterTable, rows: readonly Row[]): string {
  const header = oneRosterHeaders[table] as readonly string[];
  return [csvLine([...header]), ...rows.map((row) => csvLine(header.map((h) => row[h] ?? '')))].join('');
}

async function readGroup(store: ExportStore, group: RecordGroup): Promise<unknown[]> {
  const body: Readable | undefined = await store.read(fileNames.ndjson(group));
  if (!body) throw new Error(`${fileNames.ndjson(group)} was not found after it was written.`);
  const records: unknown[] = [];
  for await (const line of ndjsonLines(body)) records.push(JSON.parse(line));
  return records;
}

/** Reads the run's NDJSON files and returns the zip's bytes and each table's row count. */
export async function buildOneRosterZip(
  store: ExportStore,
  systemName: string,
): Promise<{ zip: Uint8Array; tables: Record<OneRosterTable, number> }> {
  const records: Record<string, unknown[]> = {};
  // The zip is made from every group the run wrote.
  for (const group of recordGroups) records[group] = await readGroup(store, group);
  const rows = oneRosterRows(records as Parameters<typeof oneRosterRows>[0]);
  const files: Record<string, Uint8Array> = { 'manifest.csv': strToU8(manifestCsv(systemName)) };
  const tables = {} as Record<OneRosterTable, number>;
  for (const table of oneRosterTables) {
    files[`${table}.csv`] = strToU8(tableCsv(table, rows[table]));
    tables[table] = rows[table].length;
  }
  // A fixed modification time keeps the zip's bytes a function of the records alone.
  return { zip: zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') }), tables };
}
