// What a signed-in person may read, by role: the one table docs/sso.md documents. A person's roles
// come from their entity's student, teacher, tutor and staff records, plus `admin` for staff whose
// account has admin rights. A group a role reads `all` of is read whole; `own` is the person's own
// records of that group, and `in-care` the students of the person's tutor records.
import { type RecordGroup, readScope, type Scope, scopes } from '../domain/groups';

export const personRoles = ['admin', 'staff', 'teacher', 'tutor', 'student'] as const;
export type PersonRole = (typeof personRoles)[number];

export type Reach = 'all' | 'own' | 'in-care';

export const rolePolicy: Record<PersonRole, Partial<Record<RecordGroup, Reach>>> = {
  admin: { entities: 'all', students: 'all', teachers: 'all', tutors: 'all', staffs: 'all' },
  staff: { teachers: 'all', staffs: 'all' },
  teacher: { students: 'all', teachers: 'all', tutors: 'all' },
  tutor: { tutors: 'own', students: 'in-care' },
  student: { students: 'own' },
};

export const isPersonRole = (value: unknown): value is PersonRole =>
  (personRoles as readonly unknown[]).includes(value);

/** The scopes a person's roles grant: every scope for an admin, the read scopes of their groups otherwise. */
export function scopesOfRoles(roles: readonly PersonRole[]): Scope[] {
  if (roles.includes('admin')) return [...scopes];
  const granted = new Set<Scope>();
  for (const role of roles) {
    for (const group of Object.keys(rolePolicy[role]) as RecordGroup[]) granted.add(readScope(group));
  }
  return scopes.filter((scope) => granted.has(scope));
}

/** How far a person's roles reach into a group: the widest reach any of them has, or none. */
export function reachOf(roles: readonly PersonRole[], group: RecordGroup): Reach[] {
  const reaches = roles.flatMap((role) => rolePolicy[role][group] ?? []);
  return reaches.includes('all') ? ['all'] : [...new Set(reaches)];
}
