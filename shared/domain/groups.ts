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

export const readScope = <G extends RecordGroup>(group: G) => `${group}:read` as const;

export const scopes = [...recordGroups.map(readScope), 'system:read'] as const;
export type Scope = (typeof scopes)[number];

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
