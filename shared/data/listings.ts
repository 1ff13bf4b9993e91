// The listings: collections the OneRoster binding pages that are not a whole native group (its users,
// the users of one role, the organisations, the persons without a role whom /users leaves out, and the
// classes and courses by school), a class's work by class (its line items, its students' results and attendance, its
// own score scales), which a person's reach reads class by class, and assessment results by student. Each is a partition of the keys-only `listings` index, in sourcedId
// order (the classes within each school, the work within each class), so a page of one is a Query of a
// key range whatever the tenant's size. A record's listing follows from the record (`listingOf`): every
// Put of a record item writes it (record-items.ts), and the two steps that change an entity's roles
// without a Put keep it (write-steps.ts).
import type { RecordGroup } from '../domain/groups';
import type { Entity, GroupRecords } from '../schemas/records';

export const listingNames = [
  'users',
  'students',
  'teachers',
  'orgs',
  'roleless-people',
  'classes',
  'courses',
  'line_items',
  'results',
  'attendance',
  'score_scales',
  'assessment_results',
] as const;
export type ListingName = (typeof listingNames)[number];

/**
 * A record's place in a listing: the listing, and what it is sorted by there: the entity id of a person
 * or organisation, `<school_id>#<class_id>` for a class, `<org_id>#<course_id>` for a course, `<class_id>#<released>#<line_item_id>` for a
 * line item (`released` is `1` once released to students, `0` before),
 * `<class_id>#<student_id>#<line_item_id>` for a result, `<class_id>#<student_id>#<date>` for an
 * attendance record (its class empty for a whole day's), `<class_id>#<score_scale_id>` for a class's
 * own score scale (the tenant's scales, which name no class, are in no listing) and
 * `<student_id>#<assessment_line_item_id>` for an assessment result, which a student and their guardians
 * read by student.
 */
export interface ListingEntry {
  listing: ListingName;
  sort: string;
}

/** Where a school's classes or courses start in their listing: their sort keys begin with it. */
export const ofSchool = (schoolId: string) => `${schoolId}#`;

/** The listing an entity is in: organisations; persons with a role (users); persons without one. */
export const entityListing = (entity: Pick<Entity, 'entity_type' | 'roles'>): ListingName =>
  entity.entity_type === 'organisation' ? 'orgs' : entity.roles.length > 0 ? 'users' : 'roleless-people';

/**
 * Where a class's line items start in theirs: every one with `released` undefined, those released to
 * students with `released` true.
 */
export const lineItemsOfClass = (classId: string, released?: true) => `${classId}#${released ? '1#' : ''}`;

/** The listings of a class's records each about one student: results and attendance. */
export const studentWork = ['results', 'attendance'] as const satisfies readonly RecordGroup[];
export type StudentWork = (typeof studentWork)[number];
/** Whether a group's records are each about one student of a class, listed by class and student. */
export const isStudentWork = (group: RecordGroup): group is StudentWork =>
  (studentWork as readonly RecordGroup[]).includes(group);

/**
 * Where a class's records about its students start in their listing: every one, or with `studentId`
 * those of one student. A whole day's attendance is listed under the empty class.
 */
export const studentWorkOfClass = (classId: string, studentId?: string) =>
  `${classId}#${studentId ? `${studentId}#` : ''}`;

/** The class a whole day's attendance is listed under: none. */
export const NO_CLASS = '';

/**
 * The ranges of one student's records in a student work listing, for the classes they are a student of:
 * one a class, and for attendance the whole days' too.
 */
export const rangesOfStudent = (listing: StudentWork, studentId: string, classIds: readonly string[]) =>
  [...classIds, ...(listing === 'attendance' ? [NO_CLASS] : [])].map((classId) => ({ classId, studentId }));

/**
 * A record about a student as its listing entry says: its id, its class, and what it is for there: a
 * result's line item, an attendance record's date.
 */
export interface StudentWorkEntry {
  recordId: string;
  classId: string;
  last: string;
}

/** What an entry of a student work listing names: the first and last parts of its sort key. */
export const ofStudentWork = (sort: string): Omit<StudentWorkEntry, 'recordId'> => {
  const [classId = '', , last = ''] = sort.split('#');
  return { classId, last };
};

/** Where a class's own score scales start in theirs. */
export const scoreScalesOfClass = (classId: string) => `${classId}#`;

/** Where a student's assessment results start in theirs. */
export const assessmentResultsOfStudent = (studentId: string) => `${studentId}#`;

/** The work of a class, each record of it listed by class: read class by class for a person's reach. */
export type ClassWork = 'line_items' | StudentWork;
export const isClassWork = (group: RecordGroup): group is ClassWork =>
  group === 'line_items' || isStudentWork(group);

/**
 * The listing a record of each listed group is in, and what it is sorted by there: entities by kind, the
 * student and teacher role records, classes and courses by school, a class's work; none for a tenant's
 * own score scale. A group without a rule is in no listing.
 */
const listingRules: { [G in RecordGroup]?: (record: GroupRecords[G]) => ListingEntry | undefined } = {
  entities: (entity) => ({ listing: entityListing(entity), sort: entity.entity_id }),
  students: (student) => ({ listing: 'students', sort: student.entity_id }),
  teachers: (teacher) => ({ listing: 'teachers', sort: teacher.entity_id }),
  classes: (cls) => ({ listing: 'classes', sort: `${ofSchool(cls.school_id)}${cls.class_id}` }),
  courses: (course) => ({ listing: 'courses', sort: `${ofSchool(course.org_id)}${course.course_id}` }),
  line_items: (item) => ({
    listing: 'line_items',
    sort: `${item.class_id}#${item.released ? 1 : 0}#${item.line_item_id}`,
  }),
  results: (result) => ({
    listing: 'results',
    sort: `${studentWorkOfClass(result.class_id, result.student_id)}${result.line_item_id}`,
  }),
  attendance: (mark) => ({
    listing: 'attendance',
    sort: `${studentWorkOfClass(mark.class_id ?? NO_CLASS, mark.student_id)}${mark.date}`,
  }),
  score_scales: (scale) =>
    typeof scale.class_id !== 'string'
      ? undefined
      : { listing: 'score_scales', sort: `${scoreScalesOfClass(scale.class_id)}${scale.score_scale_id}` },
  assessment_results: (result) => ({
    listing: 'assessment_results',
    sort: `${assessmentResultsOfStudent(result.student_id)}${result.assessment_line_item_id}`,
  }),
};

/** The groups whose records are listed: those with a rule above. */
export const listedGroups = Object.keys(listingRules) as RecordGroup[];

/** The listing a record is in, if any (`listingRules`). */
export function listingOf<G extends RecordGroup>(
  group: G,
  record: GroupRecords[G],
): ListingEntry | undefined {
  const rule = listingRules[group] as ((record: GroupRecords[G]) => ListingEntry | undefined) | undefined;
  return rule?.(record);
}
