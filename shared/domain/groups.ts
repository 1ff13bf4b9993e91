// The record groups the API serves and the OAuth scopes that guard them: every list key,
// id field and scope name in the service comes from here.

export const recordGroups = ['entities', 'students', 'teachers', 'tutors', 'staffs'] as const;
export type RecordGroup = (typeof recordGroups)[number];

export const idFields = {
  entities: 'entity_id',
  students: 'student_id',
  teachers: 'teacher_id',
  tutors: 'tutor_id',
  staffs: 'staff_id',
} as const satisfies Record<RecordGroup, string>;

export type IdField<G extends RecordGroup> = (typeof idFields)[G];

/** The groups whose records are roles of a person entity. */
export const roleGroups = ['students', 'teachers', 'tutors', 'staffs'] as const;
export type RoleGroup = (typeof roleGroups)[number];

export const roleNames = {
  students: 'student',
  teachers: 'teacher',
  tutors: 'tutor',
  staffs: 'staff',
} as const;

export const isRoleGroup = (group: RecordGroup): group is RoleGroup => group !== 'entities';

export const readScope = <G extends RecordGroup>(group: G) => `${group}:read` as const;

export const writeScope = <G extends RecordGroup>(group: G) => `${group}:write` as const;

export const scopes = [
  ...recordGroups.map(readScope),
  ...recordGroups.map(writeScope),
  'system:read',
] as const;
export type Scope = (typeof scopes)[number];

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
