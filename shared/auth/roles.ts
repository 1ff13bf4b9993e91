// What a signed-in person may read, by role: the one table docs/sso.md documents. A person's roles
// come from their entity's records, one for each group of person roles (shared/domain/groups.ts), plus
// `admin` for staff whose account has admin rights. Every role says how far it reads into every group:
// `all` of it; `own`, the person's own records of that group (their classes and enrollments too);
// `in-care`, the students of the person's tutor records (and those students' classes and enrollments);
// `taught`, what the classes the person teaches hold (their students, their enrollments, their line
// items and results); or `none`. A class's line items, and a student's results for them, are read by its
// students and their guardians (`own`, `in-care`) once released to students, by its teachers (`taught`)
// whether released or not. A student's attendance is read by the student and their guardians, and in a
// class by its teachers; a whole day's, which names no class, by no teacher.
// A new group or role fails to compile here until each role says.
import type { ClassWork } from '../data/listings';
import {
  documentGroups,
  type groups,
  type RecordGroup,
  type RoleGroup,
  type RoleName,
  readScope,
  recordGroups,
  type Scope,
  scopes,
  sensitiveScope,
  writeScope,
} from '../domain/groups';

export type PersonRole = 'admin' | RoleName;

export type Reach = 'all' | 'own' | 'in-care' | 'taught';

/** Where a person's enrollments lead: their classes, and the enrollments themselves. */
type EnrolledGroup = 'classes' | 'enrollments';

/** What a class holds of its own work, reached through the classes a person is enrolled in. */
export type ClassWorkGroup = ClassWork;

/** A student's results in assessments, read by student. */
type AssessedGroup = 'assessment_results';

/** Where `own` means something: the person's entity itself, the records that are its roles, and their enrollments'. */
type OwnedGroup = 'entities' | RoleGroup | EnrolledGroup | ClassWorkGroup | AssessedGroup;

/** Where `in-care` means something: the group a tutor's records name (its students), and theirs. */
type InCareGroup =
  | NonNullable<(typeof groups)['tutors']['links']>['group']
  | EnrolledGroup
  | ClassWorkGroup
  | AssessedGroup;

/** Where `taught` means something: the students, the enrollments and the work of the classes a person teaches. */
type TaughtGroup = 'students' | 'enrollments' | ClassWorkGroup;

/** How far one role reads into a group: `own`, `in-care` and `taught` only where they mean something. */
type ReachInto<G extends RecordGroup> =
  | 'none'
  | 'all'
  | (G extends OwnedGroup ? 'own' : never)
  | (G extends InCareGroup ? 'in-care' : never)
  | (G extends TaughtGroup ? 'taught' : never);

type RoleReaches = { [G in RecordGroup]: ReachInto<G> };

/** Staff with admin rights hold every scope, writes included, and read every group whole. */
const everyGroup = Object.fromEntries(recordGroups.map((group) => [group, 'all'])) as Record<
  RecordGroup,
  'all'
>;

/** The school's calendar, curriculum and gradebook setup, which every member of it reads whole. */
const calendar = {
  academic_sessions: 'all',
  courses: 'all',
  categories: 'all',
  score_scales: 'all',
} as const;

/**
 * The school's assessments (benchmarks, state tests), which every member of it reads whole as it reads the
 * calendar, and their results: staff read them all, a student their own, a guardian their children's; a
 * teacher none (an assessment's results are not its class's work, docs/sso.md).
 */
const assessments = <R extends 'all' | 'own' | 'in-care' | 'none'>(results: R) =>
  ({ assessment_line_items: 'all', assessment_results: results }) as const;

export const rolePolicy = {
  admin: everyGroup,
  staff: {
    entities: 'none',
    students: 'none',
    teachers: 'all',
    tutors: 'none',
    staffs: 'all',
    ...calendar,
    classes: 'all',
    enrollments: 'all',
    line_items: 'all',
    results: 'all',
    attendance: 'all',
    ...assessments('all'),
  },
  teacher: {
    entities: 'none',
    students: 'taught',
    teachers: 'all',
    tutors: 'all',
    staffs: 'none',
    ...calendar,
    classes: 'own',
    enrollments: 'taught',
    line_items: 'taught',
    results: 'taught',
    attendance: 'taught',
    ...assessments('none'),
  },
  tutor: {
    entities: 'none',
    students: 'in-care',
    teachers: 'none',
    tutors: 'own',
    staffs: 'none',
    ...calendar,
    classes: 'in-care',
    enrollments: 'in-care',
    line_items: 'in-care',
    results: 'in-care',
    attendance: 'in-care',
    ...assessments('in-care'),
  },
  student: {
    entities: 'none',
    students: 'own',
    teachers: 'none',
    tutors: 'none',
    staffs: 'none',
    ...calendar,
    classes: 'own',
    enrollments: 'own',
    line_items: 'own',
    results: 'own',
    attendance: 'own',
    ...assessments('own'),
  },
} as const satisfies Record<PersonRole, RoleReaches>;

export const personRoles = Object.keys(rolePolicy) as PersonRole[];

/** How far one role writes into a group: all of it, or what the classes the person teaches hold. */
export type WriteReach = 'all' | 'taught';

/**
 * What a person's roles let them write: an administrator every group, a teacher the line items, results
 * and attendance of the classes they teach; no other role writes. A group a role reads is not thereby written, even where its
 * scope is shared: a teacher's `gradebook:write` writes line items, never categories or score scales.
 */
export const writePolicy = {
  admin: everyGroup,
  staff: {},
  teacher: { line_items: 'taught', results: 'taught', attendance: 'taught' },
  tutor: {},
  student: {},
} as const satisfies Record<PersonRole, Partial<Record<RecordGroup, WriteReach>>>;

/** How far one role writes into a group, if at all. */
const roleWrites = (role: PersonRole, group: RecordGroup): WriteReach | undefined =>
  (writePolicy[role] as Partial<Record<RecordGroup, WriteReach>>)[group];

/** How far a person's roles write into a group: the widest any of them writes, or not at all. */
export function writeReachOf(roles: readonly PersonRole[], group: RecordGroup): WriteReach | undefined {
  const reaches = roles.map((role) => roleWrites(role, group));
  return reaches.includes('all') ? 'all' : reaches.includes('taught') ? 'taught' : undefined;
}

/** The groups some role writes only in part, whose writes read the writer's entity (their classes). */
export const partlyWritten = (group: RecordGroup): boolean =>
  personRoles.some((role) => roleWrites(role, group) === 'taught');

export const isPersonRole = (value: unknown): value is PersonRole =>
  (personRoles as readonly unknown[]).includes(value);

/** Reaches to a person's own records and their children's: the only ones that read sensitive values. */
const isPersonal = (reach: Reach) => reach === 'own' || reach === 'in-care';

/**
 * The scopes a person's roles grant: every scope for an admin; otherwise the read scopes of their groups,
 * the write scopes of the groups they write some of (`writePolicy`), and a group's sensitive values
 * (shared/records/sensitive-fields.ts) where they read only their own records or their children's: a
 * guardian their children's, a person their own; never a whole group, nor the students of the classes a
 * teacher teaches.
 */
export function scopesOfRoles(roles: readonly PersonRole[]): Scope[] {
  if (roles.includes('admin')) return [...scopes];
  const granted = new Set<Scope>();
  for (const role of roles) {
    for (const group of recordGroups) if (rolePolicy[role][group] !== 'none') granted.add(readScope(group));
    for (const group of Object.keys(writePolicy[role]) as RecordGroup[]) granted.add(writeScope(group));
  }
  for (const group of documentGroups) {
    const reaches = reachOf(roles, group);
    if (reaches.length > 0 && reaches.every(isPersonal)) granted.add(sensitiveScope(group));
  }
  return scopes.filter((scope) => granted.has(scope));
}

/** How far a person's roles reach into a group: the widest reach any of them has, or none. */
export function reachOf(roles: readonly PersonRole[], group: RecordGroup): Reach[] {
  const reaches = roles.flatMap((role): Reach[] => {
    const reach = rolePolicy[role][group];
    return reach === 'none' ? [] : [reach];
  });
  return reaches.includes('all') ? ['all'] : [...new Set(reaches)];
}
