// How a class and a person entity list their enrollments (internal string sets, docs/data-model.md):
// one entry per enrollment, naming the enrollment and what the reader of that side needs without
// reading it: its role and the other side's id. An enrollment's class, person and role never change,
// so an entry never goes stale.
import type { Enrollment } from '../schemas/records';

type Side = Pick<Enrollment, 'enrollment_id' | 'class_id' | 'entity_id' | 'role'>;

export interface EnrollmentEntry {
  role: Enrollment['role'];
  /** The other side: the person's entity id on a class, the class id on a person. */
  otherId: string;
  enrollmentId: string;
}

/** The entry on the class: `<role>#<entity_id>#<enrollment_id>`. */
export const classEntry = (e: Side) => `${e.role}#${e.entity_id}#${e.enrollment_id}`;

/** The entry on the person's entity: `<role>#<class_id>#<enrollment_id>`. */
export const personEntry = (e: Side) => `${e.role}#${e.class_id}#${e.enrollment_id}`;

export function parseEntry(entry: string): EnrollmentEntry {
  const [role, otherId, enrollmentId] = entry.split('#') as [Enrollment['role'], string, string];
  return { role, otherId, enrollmentId };
}

/** The entries an item holds (a string set read back as a Set, or none). */
export const entriesOf = (value: unknown): EnrollmentEntry[] =>
  value instanceof Set ? [...(value as Set<string>)].sort().map(parseEntry) : [];
