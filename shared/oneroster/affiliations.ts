// Where a user's roles are, and whom they are linked to, from what the native records say (docs/
// oneroster.md, "Users"): a student is at the schools of the classes they are enrolled in as a student,
// a teacher at those they teach (any other enrollment role), a guardian at their students' schools;
// staff, and anyone without such a school, at the root organisation. A student's agents are their
// guardians and a guardian's their students, so the link reads both ways. Pure: the REST reads and the
// CSV export gather the facts their own way.
import type { EntityRole } from '../schemas/records';

export type RoleName = EntityRole['role'];

/** An enrollment as a person's entity lists it: its role and class. */
export interface EnrolledIn {
  role: string;
  classId: string;
}

/** What ties one person to classes and to other people. */
export interface PersonLinks {
  enrollments: readonly EnrolledIn[];
  /** A guardian's students, as entity ids. */
  students: readonly string[];
  /** A student's guardians, as entity ids. */
  guardians: readonly string[];
}

export interface Affiliations {
  /** The entity ids of the people linked to this one, sorted. */
  agents: string[];
  /** The schools each role is at, sorted; a role with none is at the root organisation. */
  schools: Partial<Record<RoleName, string[]>>;
}

/** No school, no agent: every role at the root organisation. */
export const unaffiliated: Affiliations = { agents: [], schools: {} };

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The affiliations of a person with these roles: `schoolOf` finds a class's school, `enrollmentsOf`
 * a student's enrollments (for a guardian's schools).
 */
export function affiliationsOf(
  roles: readonly RoleName[],
  links: PersonLinks,
  schoolOf: (classId: string) => string | undefined,
  enrollmentsOf: (entityId: string) => readonly EnrolledIn[],
): Affiliations {
  const schoolsOf = (enrollments: readonly EnrolledIn[], asStudent: boolean) =>
    enrollments.flatMap((e) => ((e.role === 'student') === asStudent ? (schoolOf(e.classId) ?? []) : []));
  const at: Record<RoleName, () => string[]> = {
    student: () => schoolsOf(links.enrollments, true),
    teacher: () => schoolsOf(links.enrollments, false),
    tutor: () => links.students.flatMap((student) => schoolsOf(enrollmentsOf(student), true)),
    staff: () => [],
  };
  const schools: Partial<Record<RoleName, string[]>> = {};
  for (const role of new Set(roles)) {
    const found = sortedUnique(at[role]());
    if (found.length > 0) schools[role] = found;
  }
  return { agents: sortedUnique([...links.guardians, ...links.students]), schools };
}
