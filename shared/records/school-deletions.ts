// The deletions feed of a client registered with schools (docs/sso.md, "School scoping"): the group's
// deletions in the window that the schools held when they happened, as far as each deletion kept (a
// class's school, an enrollment's, line item's, result's or attendance record's class, a course's organisation, a person's entity), and the people who
// left the schools' classes in the window and are not there now, told as deleted at their last
// enrollment's end. Read whole for the window (the group's deletions, and the enrollments' for the people
// who left) and paged here, as OneRoster's deltas of a school's people are.
import { enrolledGroup, heldThroughPeople, ofOneClass } from '../auth/school-scope';
import { keys } from '../data/keys';
import type { Deletion, TimedPage, TimeWindowQuery } from '../data/pages';
import { pageOfWindow } from '../data/pages-of-ids';
import type { SchoolsRead } from '../data/read-scope';
import type { RecordRepository } from '../data/record-repository';
import { type RecordGroup, roleName } from '../domain/groups';

const WINDOW_BATCH = 500;

/** Whether the group's records are held through the people the schools' classes enroll, whose leaving ends enrollments. */
const throughPeople = (group: RecordGroup) => heldThroughPeople.includes(group);

async function all<G extends RecordGroup>(
  records: RecordRepository,
  group: G,
  window: Pick<TimeWindowQuery, 'since' | 'until'>,
): Promise<Deletion<G>[]> {
  const found: Deletion<G>[] = [];
  for await (const deletion of records.deletionsWithin(group, { ...window, itemsPerPage: WINDOW_BATCH })) {
    found.push(deletion);
  }
  return found;
}

/** Whether the schools held a deleted record, by what its deletion kept (`left`: people who left them meanwhile). */
export function heldBy(
  group: RecordGroup,
  { kept, id }: Deletion,
  read: SchoolsRead,
  classes: ReadonlySet<string>,
  left: ReadonlyMap<string, unknown>,
): boolean {
  const fact = (name: string) => (kept as Record<string, unknown>)[name] as string | undefined;
  const person = (entityId: string | undefined) =>
    entityId !== undefined && (read.persons.has(entityId) || left.has(entityId));
  switch (group) {
    case 'classes':
      return read.schools.includes(fact('school_id') ?? '');
    case 'enrollments':
    case 'line_items':
    case 'results':
    case 'attendance':
      return classes.has(fact('class_id') ?? '');
    case 'courses':
      return read.schools.includes(fact('org_id') ?? '');
    case 'entities':
      return read.schools.includes(id) || person(id);
    case 'students':
    case 'teachers':
    case 'tutors':
      return person(fact('entity_id'));
    default:
      return false;
  }
}

export async function schoolDeletions(
  group: RecordGroup,
  read: SchoolsRead,
  records: RecordRepository,
  window: TimeWindowQuery,
): Promise<TimedPage<Deletion>> {
  const span = { since: window.since, until: window.until };
  const [deleted, endedEnrollments, deletedClasses] = await Promise.all([
    all(records, group, span),
    throughPeople(group) ? all(records, 'enrollments', span) : [],
    ofOneClass(group) ? all(records, 'classes', span) : [],
  ]);
  // The schools' classes: those there now, and those deleted in the window that were there.
  const classes = new Set([
    ...read.classIds,
    ...deletedClasses.filter((d) => read.schools.includes(d.kept.school_id ?? '')).map((d) => d.id),
  ]);
  // Who left the schools' classes in the window (with a role of the group, for students and teachers), and when last.
  const left = new Map<string, string>();
  for (const { kept, deleted_at } of endedEnrollments) {
    const person = kept.entity_id;
    if (person === undefined || !classes.has(kept.class_id ?? '')) continue;
    if ((group === 'students' || group === 'teachers') && enrolledGroup(kept.role ?? '') !== group) continue;
    if (!((left.get(person) ?? '') > deleted_at)) left.set(person, deleted_at);
  }
  const told = new Map<string, Deletion>();
  for (const deletion of deleted) {
    if (heldBy(group, deletion, read, classes, left)) told.set(deletion.id, deletion);
  }
  // People who left and are not there now, though their records remain: gone for this client.
  const gone = [...left].filter(([person]) => !read.persons.has(person));
  if (group === 'entities') {
    for (const [person, at] of gone)
      if (!told.has(person)) told.set(person, { id: person, deleted_at: at, kept: {} });
  }
  if (group === 'students' || group === 'teachers') {
    const roles = await records.rolesOfEntities(gone.map(([person]) => person));
    for (const [person, at] of gone) {
      for (const role of roles.get(person)?.roles ?? []) {
        if (role.role !== roleName(group)) continue;
        if (!told.has(role.id))
          told.set(role.id, { id: role.id, deleted_at: at, kept: { entity_id: person } });
      }
    }
  }
  const entries = [...told.values()].map((value) => ({
    value,
    position: keys.changeSort(value.deleted_at, value.id),
  }));
  return pageOfWindow(entries, window);
}

/** The partitions a school-scoped deletions feed of `group` reads beyond its read scope's (for its IAM grants). */
export function schoolDeletionSources(group: RecordGroup): string[] {
  return [
    ...(throughPeople(group) ? [keys.deletionPartition('enrollments')] : []),
    ...(ofOneClass(group) ? [keys.deletionPartition('classes')] : []),
    ...(group === 'students' || group === 'teachers' ? [keys.recordPartition('entities')] : []),
  ];
}
