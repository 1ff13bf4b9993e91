// The record groups the API serves, each described once, and the OAuth scopes that guard them: every
// list key, id field and scope name comes from here, and so does what the writer, the role table, the
// route table, the import and the API description do with a group. Those places take each group by
// its description, or list every group where they must decide, so a group added here without them
// deciding fails to compile.
import type { AcademicSessionType } from './rostering';

export const recordGroups = [
  'entities',
  'students',
  'teachers',
  'tutors',
  'staffs',
  'academic_sessions',
  'courses',
  'classes',
  'enrollments',
  'categories',
  'score_scales',
  'line_items',
  'results',
  'attendance',
  'assessment_line_items',
  'assessment_results',
] as const;
export type RecordGroup = (typeof recordGroups)[number];

export const isRecordGroup = (value: string): value is RecordGroup =>
  (recordGroups as readonly string[]).includes(value);

export interface GroupDescription {
  /** The field holding a record's id (a UUID), which also names it in paths. */
  idField: `${string}_id`;
  /**
   * The role a record is of the person entity it belongs to, as the entity's `roles` name it; none
   * for a record that is no person's role (an entity itself, or a record about something else).
   */
  role: string | undefined;
  /** Whether records carry a processnumber, unique within the group: claimed in the write that sets it. */
  processnumber: boolean;
  /** Whether records hold identification documents, and take more by `POST /api/<group>/{id}/documents`. */
  documents: boolean;
  /**
   * A list field naming records of another group: each must exist, keeps the set of records naming it,
   * and is not deleted while named. A tutor's students are the one such link.
   */
  links: { field: 'student_ids'; group: 'students' } | undefined;
  /**
   * Fields naming records of other groups (rostering): each named record must exist, of the kind said,
   * when the record is written, and is not deleted while named (see `Reference`).
   */
  references: readonly Reference[];
  /**
   * The name of the scopes guarding the group (`<name>:read`, `<name>:write`) where several groups share
   * them, as the gradebook's do; the group's own name otherwise.
   */
  scopes?: string;
  /**
   * Records the tenant's schools share, holding no person's data (the gradebook's categories and score
   * scales): a client registered with schools reads them whole, as a person of any role does.
   */
  schoolWide?: true;
  /**
   * Fields a replace keeps as the record was made (409 otherwise): an enrollment's class, person and
   * role; a line item's class, and a result's class, line item and student, from which who may read and
   * change it follows.
   */
  fixed?: readonly string[];
  /**
   * Fields that together name at most one record of the group (a result: its line item and student; an
   * attendance record: its class, or none for the whole day, its student and its date),
   * claimed in the write that makes the record (409 for a second one) and released when it is deleted.
   * They are among the `fixed` fields, so a replace keeps the claim.
   */
  naturalKey?: readonly string[];
  /** A record, and several, in the API description's words. */
  noun: string;
  plural: string;
}

/**
 * A field naming one record (or, when `many`, a list of records) of another group, or null when
 * `nullable`. The named record keeps a count of the records naming it, and is not deleted while that
 * count is above zero; an enrollment's class and person instead keep the enrollments themselves, so a
 * class's and a person's enrollments are read by id (docs/data-model.md).
 */
export interface Reference {
  field: string;
  group: RecordGroup;
  many?: true;
  nullable?: true;
  /** The record named must be of this kind: its `field` holds `value` (an entity's type, a session's). */
  kind?:
    | { field: 'entity_type'; value: 'person' | 'organisation' }
    | { field: 'type'; value: AcademicSessionType };
  /** The named record lists the enrollments naming it, instead of counting them. */
  enrollments?: true;
  /**
   * A field the named record must hold as this record does: a result's line item is of the result's
   * class. Checked in the write that names it.
   */
  matching?: 'class_id';
  /** With `matching`, the named record may instead hold none (null): a tenant's scale, which every class uses. */
  orShared?: true;
  /**
   * The records naming one are listed under it (a `referrer` item each, item-kinds.ts), in id order, so
   * that a collection of them (a course's classes, a term's) is read from its keys, not from the group.
   */
  listed?: true;
}

export const groups = {
  entities: {
    idField: 'entity_id',
    role: undefined,
    processnumber: false,
    documents: true,
    links: undefined,
    references: [
      {
        field: 'parent_id',
        group: 'entities',
        nullable: true,
        kind: { field: 'entity_type', value: 'organisation' },
      },
    ],
    noun: 'entity',
    plural: 'entities',
  },
  students: {
    idField: 'student_id',
    role: 'student',
    processnumber: true,
    documents: true,
    links: undefined,
    references: [],
    noun: 'student',
    plural: 'students',
  },
  teachers: {
    idField: 'teacher_id',
    role: 'teacher',
    processnumber: true,
    documents: true,
    links: undefined,
    references: [],
    noun: 'teacher',
    plural: 'teachers',
  },
  tutors: {
    idField: 'tutor_id',
    role: 'tutor',
    processnumber: true,
    documents: true,
    links: { field: 'student_ids', group: 'students' },
    references: [],
    noun: 'tutor',
    plural: 'tutors',
  },
  staffs: {
    idField: 'staff_id',
    role: 'staff',
    processnumber: true,
    documents: true,
    links: undefined,
    references: [],
    noun: 'staff member',
    plural: 'staff members',
  },
  academic_sessions: {
    idField: 'academic_session_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [{ field: 'parent_id', group: 'academic_sessions', nullable: true }],
    noun: 'academic session',
    plural: 'academic sessions',
  },
  courses: {
    idField: 'course_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'org_id', group: 'entities', kind: { field: 'entity_type', value: 'organisation' } },
    ],
    noun: 'course',
    plural: 'courses',
  },
  classes: {
    idField: 'class_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'course_id', group: 'courses', listed: true },
      { field: 'school_id', group: 'entities', kind: { field: 'entity_type', value: 'organisation' } },
      { field: 'term_ids', group: 'academic_sessions', many: true, listed: true },
    ],
    noun: 'class',
    plural: 'classes',
  },
  enrollments: {
    idField: 'enrollment_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'class_id', group: 'classes', enrollments: true },
      {
        field: 'entity_id',
        group: 'entities',
        kind: { field: 'entity_type', value: 'person' },
        enrollments: true,
      },
    ],
    fixed: ['class_id', 'entity_id', 'role'],
    noun: 'enrollment',
    plural: 'enrollments',
  },
  categories: {
    idField: 'category_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'school_year_id', group: 'academic_sessions', kind: { field: 'type', value: 'school_year' } },
    ],
    scopes: 'gradebook',
    schoolWide: true,
    noun: 'category',
    plural: 'categories',
  },
  score_scales: {
    idField: 'score_scale_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [{ field: 'class_id', group: 'classes', nullable: true }],
    scopes: 'gradebook',
    // The class of a scale its line items are on stays theirs.
    fixed: ['class_id'],
    schoolWide: true,
    noun: 'score scale',
    plural: 'score scales',
  },
  line_items: {
    idField: 'line_item_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'class_id', group: 'classes' },
      { field: 'category_id', group: 'categories' },
      // A line item is on the tenant's scale or on one of its own class's.
      {
        field: 'score_scale_id',
        group: 'score_scales',
        nullable: true,
        matching: 'class_id',
        orShared: true,
      },
      {
        field: 'grading_period_id',
        group: 'academic_sessions',
        nullable: true,
        kind: { field: 'type', value: 'grading_period' },
      },
    ],
    scopes: 'gradebook',
    fixed: ['class_id'],
    noun: 'line item',
    plural: 'line items',
  },
  results: {
    idField: 'result_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    references: [
      { field: 'class_id', group: 'classes' },
      { field: 'line_item_id', group: 'line_items', matching: 'class_id' },
      { field: 'student_id', group: 'students' },
    ],
    scopes: 'gradebook',
    fixed: ['class_id', 'line_item_id', 'student_id'],
    naturalKey: ['line_item_id', 'student_id'],
    noun: 'result',
    plural: 'results',
  },
  attendance: {
    idField: 'attendance_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    // No class: the student's attendance for the whole school day.
    references: [
      { field: 'class_id', group: 'classes', nullable: true },
      { field: 'student_id', group: 'students' },
    ],
    fixed: ['class_id', 'student_id', 'date'],
    naturalKey: ['class_id', 'student_id', 'date'],
    noun: 'attendance record',
    plural: 'attendance records',
  },
  assessment_line_items: {
    idField: 'assessment_line_item_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    // An assessment may be of no class (a district's benchmark), and may be part of another.
    references: [
      { field: 'class_id', group: 'classes', nullable: true },
      { field: 'parent_id', group: 'assessment_line_items', nullable: true },
      {
        field: 'score_scale_id',
        group: 'score_scales',
        nullable: true,
        matching: 'class_id',
        orShared: true,
      },
    ],
    scopes: 'assessment',
    fixed: ['class_id'],
    noun: 'assessment line item',
    plural: 'assessment line items',
  },
  assessment_results: {
    idField: 'assessment_result_id',
    role: undefined,
    processnumber: false,
    documents: false,
    links: undefined,
    // The class is the assessment's, kept on the result so that the schools of a class hold both.
    references: [
      { field: 'class_id', group: 'classes', nullable: true },
      { field: 'assessment_line_item_id', group: 'assessment_line_items', matching: 'class_id' },
      { field: 'student_id', group: 'students' },
    ],
    scopes: 'assessment',
    fixed: ['class_id', 'assessment_line_item_id', 'student_id'],
    naturalKey: ['assessment_line_item_id', 'student_id'],
    noun: 'assessment result',
    plural: 'assessment results',
  },
} as const satisfies Record<RecordGroup, GroupDescription>;

type Groups = typeof groups;

/**
 * The reference that makes a group a tree, its records' parent among its own (an organisation's, an
 * academic session's, an assessment's `parent_id`), if it has one.
 */
export const treeReference = (group: RecordGroup): Reference | undefined =>
  (groups[group] as GroupDescription).references.find((r) => r.group === group);

/**
 * Whether a group's records each name a student and the class they are about (a result, an attendance
 * mark, an assessment result): made only for a student the class enrolls (records/class-students.ts).
 */
export const aboutStudentOfClass = (group: RecordGroup): boolean => {
  const { references } = groups[group] as GroupDescription;
  const names = (field: string, named: RecordGroup) =>
    references.some((r) => r.field === field && r.group === named);
  return names('class_id', 'classes') && names('student_id', 'students');
};

export const idFields = Object.fromEntries(recordGroups.map((group) => [group, groups[group].idField])) as {
  [G in RecordGroup]: Groups[G]['idField'];
};

/** The groups of a table of descriptions whose records are roles of a person entity. */
export type RoleGroupIn<T extends Record<string, GroupDescription>> = {
  [G in keyof T]: T[G]['role'] extends string ? G : never;
}[keyof T];

/** Whether a description is of a person's role. */
export const describesRole = (
  description: GroupDescription,
): description is GroupDescription & { role: string } => description.role !== undefined;

/** The groups whose records are roles of a person entity. */
export type RoleGroup = RoleGroupIn<Groups>;
export type RoleName = Groups[RoleGroup]['role'];

export const isRoleGroup = (group: RecordGroup): group is RoleGroup => describesRole(groups[group]);
export const roleGroups: readonly RoleGroup[] = recordGroups.filter(isRoleGroup);
/** The groups of people and organisations: the entities and the person roles (not the rostering groups). */
export const personGroups: readonly ('entities' | RoleGroup)[] = ['entities', ...roleGroups];
export const roleName = <G extends RoleGroup>(group: G): Groups[G]['role'] => groups[group].role;
/** Every role name, in the order of the groups. */
export const roleNames: readonly RoleName[] = roleGroups.map(roleName);
/** The role names as a sentence says them: "student, teacher, tutor or staff". */
export const roleNamesInWords = `${roleNames.slice(0, -1).join(', ')} or ${roleNames.at(-1)}`;

/** The groups whose records carry a processnumber: the ones `npm run import` upserts by it. */
export type NumberedGroup = {
  [G in RecordGroup]: Groups[G]['processnumber'] extends true ? G : never;
}[RecordGroup];
export const isNumberedGroup = (group: RecordGroup): group is NumberedGroup => groups[group].processnumber;

/** The groups whose records hold identification documents. */
export type DocumentGroup = {
  [G in RecordGroup]: Groups[G]['documents'] extends true ? G : never;
}[RecordGroup];

export const isDocumentGroup = (group: RecordGroup): group is DocumentGroup => groups[group].documents;
/** The groups of records holding identification documents and bank accounts: the sensitive values. */
export const documentGroups: readonly DocumentGroup[] = recordGroups.filter(isDocumentGroup);

/** The name of a group's scopes: its family's (`scopes`), or its own. */
export type ScopeName<G extends RecordGroup> = G extends unknown
  ? Groups[G] extends { scopes: infer S extends string }
    ? S
    : G
  : never;
export const scopeName = <G extends RecordGroup>(group: G): ScopeName<G> =>
  ((groups[group] as GroupDescription).scopes ?? group) as ScopeName<G>;

export const readScope = <G extends RecordGroup>(group: G) => `${scopeName(group)}:read` as const;

export const writeScope = <G extends RecordGroup>(group: G) => `${scopeName(group)}:write` as const;

/** The gradebook's groups: guarded by the gradebook scopes. */
export type GradebookGroup = {
  [G in RecordGroup]: ScopeName<G> extends 'gradebook' ? G : never;
}[RecordGroup];

/**
 * Reading the values of a group's identification documents and bank accounts unmasked
 * (shared/records/sensitive-fields.ts); without it a reader sees them masked.
 */
export const sensitiveScope = <G extends DocumentGroup>(group: G) => `${group}:read:sensitive` as const;

/**
 * The OneRoster 1.2 scopes this service grants. Rostering (its REST binding, section 4): `roster.readonly`
 * reads every collection but demographics, `roster-core.readonly` the same core set, and
 * `roster-demographics.readonly` the demographics. Gradebook (its binding's OpenAPI file):
 * `gradebook.readonly` reads every collection, `gradebook-core.readonly` the collections of the model's
 * objects, not those nested under a class; `gradebook.createput` creates or replaces an object by its
 * sourcedId, `gradebook.createpost` posts a line item's results at once, and `gradebook.delete` deletes
 * an object. The binding's assessment line items and results have their own three, `assessment.readonly`,
 * `assessment.createput` and `assessment.delete`.
 */
export const oneRosterScopes = {
  roster: 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly',
  core: 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly',
  demographics: 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-demographics.readonly',
  gradebook: 'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.readonly',
  gradebookCore: 'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook-core.readonly',
  gradebookCreatePut: 'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.createput',
  gradebookCreatePost: 'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.createpost',
  gradebookDelete: 'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.delete',
  assessment: 'https://purl.imsglobal.org/spec/or/v1p2/scope/assessment.readonly',
  assessmentCreatePut: 'https://purl.imsglobal.org/spec/or/v1p2/scope/assessment.createput',
  assessmentDelete: 'https://purl.imsglobal.org/spec/or/v1p2/scope/assessment.delete',
} as const;

export const scopes = [
  ...new Set(recordGroups.map(readScope)),
  ...new Set(recordGroups.map(writeScope)),
  'system:read',
  'clients:admin',
  'webhooks:manage',
  ...documentGroups.map(sensitiveScope),
  ...Object.values(oneRosterScopes),
] as const;
export type Scope = (typeof scopes)[number];

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
