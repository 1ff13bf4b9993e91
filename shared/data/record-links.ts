// What a record names, by its group's description (shared/domain/groups.ts), and what that puts on each
// record it names: a tutor is in the set of tutors of each of its students, a record naming a session,
// course or organisation is counted on it, and an enrollment is an entry on its class and its person.
// Record writes keep these in step one change at a time (shared/records/write-rules.ts) and a seed
// writes them with the records (record-repository.ts), both by these rules.
import { type GroupDescription, groups, type RecordGroup, type Reference } from '../domain/groups';
import type { Enrollment } from '../schemas/records';
import { classEntry, personEntry } from './enrollment-entries';
import { internal } from './record-items';

/** The records a record links to through its group's `links` (a tutor's students). */
export function linkedIds(group: RecordGroup, record: object | undefined): string[] {
  const field = groups[group].links?.field;
  const ids = field && record ? (record as Record<string, unknown>)[field] : undefined;
  return Array.isArray(ids) ? (ids as string[]) : [];
}

/** The ids a record names through a reference: none, one, or a list. */
export function namedIds(reference: Reference, record: object | undefined): string[] {
  const value = record ? (record as Record<string, unknown>)[reference.field] : undefined;
  if (Array.isArray(value)) return value as string[];
  return typeof value === 'string' ? [value] : [];
}

/** The entry an enrollment is listed by on the record `reference` names: its class, or its person. */
export const enrollmentEntry = (reference: Reference, enrollment: Enrollment) =>
  reference.group === 'classes' ? classEntry(enrollment) : personEntry(enrollment);

/** What a record puts on a record it names: an entry in a string set, or (without one) a count. */
export interface Link {
  group: RecordGroup;
  id: string;
  attribute: string;
  entry?: string;
}

/** Everything a record (`group`, `id`) puts on the records it names. */
export function linksOf(group: RecordGroup, id: string, record: object): Link[] {
  const linked = groups[group].links;
  return [
    ...(linked
      ? linkedIds(group, record).map((target) => ({
          group: linked.group,
          id: target,
          attribute: internal.tutors,
          entry: id,
        }))
      : []),
    ...groups[group].references.flatMap((reference: Reference) =>
      namedIds(reference, record).map((target) =>
        reference.enrollments
          ? {
              group: reference.group,
              id: target,
              attribute: internal.enrollments,
              entry: enrollmentEntry(reference, record as Enrollment),
            }
          : { group: reference.group, id: target, attribute: internal.refs },
      ),
    ),
  ];
}

/**
 * The values of a record's natural key, joined as its claim holds them (`naturalKey` in groups.ts); a
 * null value (a whole day's attendance names no class) is empty.
 */
export const naturalKeyOf = (group: RecordGroup, record: object | undefined): string | undefined => {
  const fields = (groups[group] as GroupDescription).naturalKey;
  return fields && record
    ? fields.map((f) => String((record as Record<string, unknown>)[f] ?? '')).join('#')
    : undefined;
};
