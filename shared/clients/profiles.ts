// A client's field profile (the Ed-Fi profile idea): per record group, and per OneRoster object, the fields
// it may read, by inclusion or by exclusion. Reads leave the others out, `fields=` cannot bring them back,
// filters and sorts on them are refused, and a write that sets one is refused. What identifies a record,
// and what the OneRoster binding requires of an object, is always kept. Two profiles ship ready.
import { idFields, type RecordGroup } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import { objectFields } from '../oneroster/objects';

export type FieldRule = { include: readonly string[] } | { exclude: readonly string[] };

/** The OneRoster objects a profile can narrow (shared/oneroster/objects.ts names their fields). */
export const oneRosterObjects = [
  'users',
  'orgs',
  'demographics',
  'academicSessions',
  'courses',
  'classes',
  'enrollments',
  'categories',
  'scoreScales',
  'lineItems',
  'results',
  'assessmentLineItems',
  'assessmentResults',
] as const;
export type OneRosterObjectName = (typeof oneRosterObjects)[number];

export interface Profile {
  records?: Partial<Record<RecordGroup, FieldRule>>;
  oneroster?: Partial<Record<OneRosterObjectName, FieldRule>>;
}

/** A record's fields no profile removes: its id, its person, and its times, which paging and sync need. */
export const fixedRecordFields = (group: RecordGroup): readonly string[] => [
  idFields[group],
  'entity_id',
  'created_at',
  'updated_at',
];

/**
 * An object's fields no profile removes: the base every object has, and what the binding's schema
 * requires of each (OneRoster 1.2 Rostering and Gradebook, the data models' required properties).
 */
export const fixedObjectFields: Record<OneRosterObjectName, readonly string[]> = {
  users: ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'givenName', 'familyName', 'roles'],
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type'],
  demographics: ['sourcedId', 'status', 'dateLastModified'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'startDate',
    'endDate',
    'type',
    'schoolYear',
  ],
  courses: ['sourcedId', 'status', 'dateLastModified', 'title', 'org'],
  classes: ['sourcedId', 'status', 'dateLastModified', 'title', 'classType', 'course', 'school', 'terms'],
  enrollments: ['sourcedId', 'status', 'dateLastModified', 'user', 'class', 'school', 'role'],
  categories: ['sourcedId', 'status', 'dateLastModified', 'title'],
  scoreScales: ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'class', 'scoreScaleValue'],
  lineItems: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'assignDate',
    'dueDate',
    'class',
    'school',
    'category',
  ],
  results: ['sourcedId', 'status', 'dateLastModified', 'lineItem', 'student', 'scoreStatus', 'scoreDate'],
  assessmentLineItems: ['sourcedId', 'status', 'dateLastModified', 'title'],
  assessmentResults: [
    'sourcedId',
    'status',
    'dateLastModified',
    'assessmentLineItem',
    'student',
    'scoreDate',
    'scoreStatus',
  ],
};

/** The fields of `all` a rule lets a reader see, in `all`'s order, `fixed` always among them. */
export function allowedBy(rule: FieldRule | undefined, all: readonly string[], fixed: readonly string[]) {
  if (!rule) return all;
  return all.filter(
    (field) =>
      fixed.includes(field) ||
      ('include' in rule ? rule.include.includes(field) : !rule.exclude.includes(field)),
  );
}

/** The fields of a group's records a profile lets its client read (all of them without a profile). */
export const readableRecordFields = (profile: Profile | undefined, group: RecordGroup): readonly string[] =>
  allowedBy(profile?.records?.[group], recordFields[group], fixedRecordFields(group));

/** The fields of a OneRoster object a profile lets its client read (all of them without a profile). */
export const readableObjectFields = (
  profile: Profile | undefined,
  object: OneRosterObjectName,
): readonly string[] =>
  allowedBy(profile?.oneroster?.[object], objectFields[object], fixedObjectFields[object]);

/** The fields of a group's records a profile keeps from its client: what it neither reads nor writes. */
export const hiddenRecordFields = (profile: Profile | undefined, group: RecordGroup): readonly string[] => {
  const readable = readableRecordFields(profile, group);
  return recordFields[group].filter((field) => !readable.includes(field));
};

/** The same fields of every group of people; a tutor's students too. */
const forPeople = (fields: readonly string[]) => ({
  students: { include: fields },
  teachers: { include: fields },
  staffs: { include: fields },
  tutors: { include: [...fields, 'student_ids'] },
});

/** A roster's people without what a roster does not need: no photo, documents, bank accounts or addresses. */
const rosterPerson = ['processnumber', 'ative', 'email', 'name', 'gender', 'birth_date'];
const rosterOneRoster = { demographics: { include: [] } };

/** The profiles a client can be registered with by name. */
export const readyProfiles = {
  /** Names, ids, e-mail, schools and grades: what an LMS or a library system rosters with. */
  'roster-basic': {
    records: {
      ...forPeople(rosterPerson),
      entities: { include: ['entity_type', 'name', 'email', 'roles', 'org_type', 'parent_id'] },
    },
    oneroster: rosterOneRoster,
  },
  /** roster-basic and where people live, for a transport app planning routes. */
  transport: {
    records: {
      ...forPeople([...rosterPerson, 'addresses']),
      entities: { include: ['entity_type', 'name', 'email', 'roles', 'org_type', 'parent_id', 'addresses'] },
    },
    oneroster: rosterOneRoster,
  },
} as const satisfies Record<string, Profile>;

export type ReadyProfileName = keyof typeof readyProfiles;
export const readyProfileNames = Object.keys(readyProfiles) as ReadyProfileName[];

/** A registered profile (a ready one's name, or one of the client's own) as the reads apply it. */
export const resolveProfile = (profile: ReadyProfileName | Profile | undefined): Profile | undefined =>
  typeof profile === 'string' ? readyProfiles[profile] : profile;
