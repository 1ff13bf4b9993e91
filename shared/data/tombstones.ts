// What a deletion item keeps of the deleted record beside its id and time: its kind and the ids a
// consumer of a delta needs to find what it must delete (OneRoster's `tobedeleted` objects,
// docs/oneroster.md), never a person's name, contacts or any other detail. Declared for every group,
// so a new group says what its deletions keep.
import type { RecordGroup } from '../domain/groups';
import type { GroupRecords } from '../schemas/records';

export const tombstoneFields = {
  entities: ['entity_type', 'org_type'],
  students: ['entity_id'],
  teachers: ['entity_id'],
  tutors: ['entity_id'],
  staffs: ['entity_id'],
  academic_sessions: ['type', 'start_date', 'end_date', 'school_year', 'parent_id'],
  courses: ['org_id'],
  classes: ['course_id', 'school_id', 'term_ids'],
  enrollments: ['class_id', 'entity_id', 'role'],
  categories: ['school_year_id'],
  score_scales: ['type', 'class_id'],
  line_items: ['class_id', 'category_id'],
  results: ['class_id', 'line_item_id', 'student_id'],
  attendance: ['class_id', 'student_id', 'date'],
  assessment_line_items: ['class_id'],
  assessment_results: ['class_id', 'assessment_line_item_id', 'student_id'],
} as const satisfies { [G in RecordGroup]: readonly (keyof GroupRecords[G])[] };

/** What a deletion of the group keeps: those fields of the record, each where the record has it. */
export type Tombstone<G extends RecordGroup> = Partial<
  Pick<GroupRecords[G], (typeof tombstoneFields)[G][number] & keyof GroupRecords[G]>
>;

export function tombstoneOf<G extends RecordGroup>(
  group: G,
  record: Pick<GroupRecords[G], (typeof tombstoneFields)[G][number] & keyof GroupRecords[G]>,
): Tombstone<G> {
  const kept: Record<string, unknown> = {};
  for (const field of tombstoneFields[group] as readonly string[]) {
    const value = (record as Record<string, unknown>)[field];
    if (value !== undefined) kept[field] = value;
  }
  return kept as Tombstone<G>;
}
