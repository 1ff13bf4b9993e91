// Response shapes of the records, written once: the integration tests validate every response
// against them, and they carry the specification's field spellings (`ative`, `back_account_number`).
import * as z from 'zod';
import { attendanceStatuses } from '../domain/attendance';
import { resultStatuses, scoreScaleTypes } from '../domain/gradebook';
import { roleNames } from '../domain/groups';
import { academicSessionTypes, classTypes, enrollmentRoles, orgTypes } from '../domain/rostering';

const date = z.iso.date();
const timestamp = z.iso.datetime();

export const Address = z.strictObject({
  address: z.string(),
  address2: z.string(),
  zone_code: z.string(),
  postal_code: z.string(),
  city: z.string(),
  country: z.string(),
});

export const Contact = z.strictObject({
  contact: z.string(),
  contact_type_name: z.string(),
});

export const IdentificationDocument = z.strictObject({
  init_date: date,
  end_date: date,
  identification_document_value: z.string(),
  identification_document_type_name: z.string(),
});

export const BankAccount = z.strictObject({
  back_account_number: z.string(),
  country_name: z.string(),
  entity_bank_account_type: z.string(),
});

const personFields = {
  processnumber: z.string(),
  ative: z.boolean(),
  email: z.email(),
  name: z.string(),
  gender: z.string(),
  photobase64: z.union([z.literal(''), z.base64()]),
  birth_date: date,
  naturality: z.string(),
  nationality: z.string(),
  marital_status: z.string(),
  deceased: z.boolean(),
  addresses: z.array(Address),
  contacts: z.array(Contact),
  documents: z.array(IdentificationDocument),
  bankAccounts: z.array(BankAccount),
  entity_id: z.uuid(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const Student = z.strictObject({ student_id: z.uuid(), ...personFields });
export const Teacher = z.strictObject({ teacher_id: z.uuid(), ...personFields });
export const Tutor = z.strictObject({ tutor_id: z.uuid(), student_ids: z.array(z.uuid()), ...personFields });
export const Staff = z.strictObject({ staff_id: z.uuid(), ...personFields });

export const EntityRole = z.strictObject({
  role: z.enum(roleNames),
  id: z.uuid(),
});

export const Entity = z.strictObject({
  entity_id: z.uuid(),
  entity_type: z.enum(['person', 'organisation']),
  name: z.string(),
  email: z.email(),
  addresses: z.array(Address),
  contacts: z.array(Contact),
  documents: z.array(IdentificationDocument),
  bankAccounts: z.array(BankAccount),
  roles: z.array(EntityRole),
  /** An organisation's place in its tree; absent on persons and on organisations written before them. */
  org_type: z.enum(orgTypes).optional(),
  parent_id: z.uuid().nullable().optional(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const AcademicSession = z.strictObject({
  academic_session_id: z.uuid(),
  title: z.string(),
  type: z.enum(academicSessionTypes),
  start_date: date,
  end_date: date,
  parent_id: z.uuid().nullable(),
  school_year: z.string().regex(/^\d{4}$/),
  created_at: timestamp,
  updated_at: timestamp,
});

export const Course = z.strictObject({
  course_id: z.uuid(),
  title: z.string(),
  course_code: z.string(),
  grades: z.array(z.string()),
  subjects: z.array(z.string()),
  org_id: z.uuid(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const Class = z.strictObject({
  class_id: z.uuid(),
  title: z.string(),
  class_code: z.string(),
  class_type: z.enum(classTypes),
  course_id: z.uuid(),
  school_id: z.uuid(),
  term_ids: z.array(z.uuid()),
  periods: z.array(z.string()),
  location: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const Enrollment = z.strictObject({
  enrollment_id: z.uuid(),
  class_id: z.uuid(),
  entity_id: z.uuid(),
  role: z.enum(enrollmentRoles),
  primary: z.boolean(),
  begin_date: date.nullable(),
  end_date: date.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const Category = z.strictObject({
  category_id: z.uuid(),
  title: z.string(),
  weight: z.number().min(0),
  school_year_id: z.uuid(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * A numeric scale has its range and no letter values; a letter scale its values, best first, and no range.
 * A class's own scale names it; the tenant's, which every class may use, names none.
 */
export const ScoreScale = z.strictObject({
  score_scale_id: z.uuid(),
  title: z.string(),
  type: z.enum(scoreScaleTypes),
  class_id: z.uuid().nullable(),
  minimum: z.number().nullable(),
  maximum: z.number().nullable(),
  values: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
});

/** An assignment or assessment of a class, scored on a scale or out of a maximum; students see it once released. */
export const LineItem = z.strictObject({
  line_item_id: z.uuid(),
  class_id: z.uuid(),
  title: z.string(),
  description: z.string(),
  category_id: z.uuid(),
  score_scale_id: z.uuid().nullable(),
  result_value_min: z.number().nullable(),
  result_value_max: z.number().nullable(),
  grading_period_id: z.uuid().nullable(),
  assign_date: date,
  due_date: date,
  released: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * A student's result for a line item of their class: where it stands, and a score (a number, or a letter
 * value of the line item's scale in `text_score`) with a comment.
 */
export const Result = z.strictObject({
  result_id: z.uuid(),
  class_id: z.uuid(),
  line_item_id: z.uuid(),
  student_id: z.uuid(),
  status: z.enum(resultStatuses),
  score: z.number().nullable(),
  text_score: z.string().nullable(),
  score_date: date,
  comment: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});

/** A student's attendance in a class on a date, or for the whole school day when it names no class. */
export const Attendance = z.strictObject({
  attendance_id: z.uuid(),
  class_id: z.uuid().nullable(),
  student_id: z.uuid(),
  date,
  status: z.enum(attendanceStatuses),
  minutes_late: z.int().min(1).nullable(),
  note: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * An assessment, of a class or of none (a district's benchmark, a state test), and perhaps part of another:
 * scored on a scale, out of a range, or neither. Its results are read by staff and administrators.
 */
export const AssessmentLineItem = z.strictObject({
  assessment_line_item_id: z.uuid(),
  class_id: z.uuid().nullable(),
  parent_id: z.uuid().nullable(),
  title: z.string(),
  description: z.string(),
  score_scale_id: z.uuid().nullable(),
  result_value_min: z.number().nullable(),
  result_value_max: z.number().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * A student's result in an assessment: where it stands, a score (a number, a letter value in
 * `text_score`, or both), the percentile it places the student at, and a comment. Its class is the
 * assessment's.
 */
export const AssessmentResult = z.strictObject({
  assessment_result_id: z.uuid(),
  class_id: z.uuid().nullable(),
  assessment_line_item_id: z.uuid(),
  student_id: z.uuid(),
  status: z.enum(resultStatuses),
  score: z.number().nullable(),
  text_score: z.string().nullable(),
  score_percentile: z.number().min(0).max(100).nullable(),
  score_date: date,
  comment: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});

/** A class's register for a date, as written: each student's mark, new or replaced. */
export const AttendanceRegister = z.strictObject({
  class_id: z.uuid(),
  date,
  attendance: z.array(Attendance),
});

/** A line item's results as graded together: each student's, new or replaced. */
export const LineItemResults = z.strictObject({
  line_item_id: z.uuid(),
  class_id: z.uuid(),
  results: z.array(Result),
});

/** A student's grades per class and grading period (shared/domain/grade-average.ts has the rule). */
export const StudentGrades = z.strictObject({
  student_id: z.uuid(),
  grades: z.array(
    z.strictObject({
      class_id: z.uuid(),
      grading_period_id: z.uuid().nullable(),
      average: z.number().min(0).max(100),
      categories: z.array(
        z.strictObject({
          category_id: z.uuid(),
          weight: z.number().min(0),
          average: z.number().min(0).max(100),
          results: z.int().min(1),
        }),
      ),
    }),
  ),
});

/** How many records have each of a vocabulary's values (a result's statuses, an attendance mark's). */
const countsByValue = <const T extends readonly string[]>(values: T) =>
  z.strictObject(
    Object.fromEntries(values.map((value) => [value, z.int().min(0)])) as Record<T[number], z.ZodInt>,
  );

/** How many results of a line item have one score, or one letter. */
const countOf = <const K extends string, V extends z.ZodType>(key: K, value: V) =>
  z.strictObject({ [key]: value, count: z.int().min(1) } as { [k in K]: V } & { count: z.ZodInt });

/** A line item's score distribution, from its tally (docs/api.md, "Summaries"). */
export const LineItemDistribution = z.strictObject({
  line_item_id: z.uuid(),
  class_id: z.uuid(),
  results: z.int().min(0),
  statuses: countsByValue(resultStatuses),
  scores: z.array(countOf('score', z.number())),
  text_scores: z.array(countOf('text_score', z.string())),
  percentages: z.strictObject({
    counted: z.int().min(0),
    average: z.number().min(0).max(100).nullable(),
    bands: z.array(
      z.strictObject({ from: z.number().min(0), to: z.number().max(100), count: z.int().min(0) }),
    ),
  }),
});

/** Attendance marks, and the rate they make (null with none but excused ones). */
const markCounts = {
  marks: countsByValue(attendanceStatuses),
  rate: z.number().min(0).max(100).nullable(),
};

/** A student's attendance per class, term and month of whole days, from their tallies (docs/api.md). */
export const AttendanceSummary = z.strictObject({
  student_id: z.uuid(),
  classes: z.array(z.strictObject({ class_id: z.uuid(), term_ids: z.array(z.uuid()), ...markCounts })),
  terms: z.array(z.strictObject({ term_id: z.uuid(), ...markCounts })),
  days: z.array(z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/), ...markCounts })),
});

export type Address = z.infer<typeof Address>;
export type Contact = z.infer<typeof Contact>;
export type IdentificationDocument = z.infer<typeof IdentificationDocument>;
export type BankAccount = z.infer<typeof BankAccount>;
export type Student = z.infer<typeof Student>;
export type Teacher = z.infer<typeof Teacher>;
export type Tutor = z.infer<typeof Tutor>;
export type Staff = z.infer<typeof Staff>;
export type Entity = z.infer<typeof Entity>;
export type EntityRole = z.infer<typeof EntityRole>;
export type AcademicSession = z.infer<typeof AcademicSession>;
export type Course = z.infer<typeof Course>;
export type Class = z.infer<typeof Class>;
export type Enrollment = z.infer<typeof Enrollment>;
export type Category = z.infer<typeof Category>;
export type ScoreScale = z.infer<typeof ScoreScale>;
export type LineItem = z.infer<typeof LineItem>;
export type Result = z.infer<typeof Result>;
export type Attendance = z.infer<typeof Attendance>;
export type AssessmentLineItem = z.infer<typeof AssessmentLineItem>;
export type AssessmentResult = z.infer<typeof AssessmentResult>;

export const recordSchemas = {
  entities: Entity,
  students: Student,
  teachers: Teacher,
  tutors: Tutor,
  staffs: Staff,
  academic_sessions: AcademicSession,
  courses: Course,
  classes: Class,
  enrollments: Enrollment,
  categories: Category,
  score_scales: ScoreScale,
  line_items: LineItem,
  results: Result,
  attendance: Attendance,
  assessment_line_items: AssessmentLineItem,
  assessment_results: AssessmentResult,
} as const;

export interface GroupRecords {
  entities: Entity;
  students: Student;
  teachers: Teacher;
  tutors: Tutor;
  staffs: Staff;
  academic_sessions: AcademicSession;
  courses: Course;
  classes: Class;
  enrollments: Enrollment;
  categories: Category;
  score_scales: ScoreScale;
  line_items: LineItem;
  results: Result;
  attendance: Attendance;
  assessment_line_items: AssessmentLineItem;
  assessment_results: AssessmentResult;
}

const pagingFields = {
  page: z.int().min(1),
  items_per_page: z.int().min(1).max(500),
  total_items: z.int().min(0),
  total_pages: z.int().min(0),
  next_cursor: z.string().optional(),
};

export const listEnvelope = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.strictObject({ [key]: z.array(item), ...pagingFields } as {
    [P in K]: z.ZodArray<T>;
  } & typeof pagingFields);

export const EntitiesList = listEnvelope('entities', Entity);
export const StudentsList = listEnvelope('students', Student);
export const TeachersList = listEnvelope('teachers', Teacher);
export const TutorsList = listEnvelope('tutors', Tutor);
export const StaffsList = listEnvelope('staffs', Staff);
export const AcademicSessionsList = listEnvelope('academic_sessions', AcademicSession);
export const CoursesList = listEnvelope('courses', Course);
export const ClassesList = listEnvelope('classes', Class);
export const EnrollmentsList = listEnvelope('enrollments', Enrollment);
export const CategoriesList = listEnvelope('categories', Category);
export const ScoreScalesList = listEnvelope('score_scales', ScoreScale);
export const LineItemsList = listEnvelope('line_items', LineItem);
export const ResultsList = listEnvelope('results', Result);
export const AttendanceList = listEnvelope('attendance', Attendance);
export const AssessmentLineItemsList = listEnvelope('assessment_line_items', AssessmentLineItem);
export const AssessmentResultsList = listEnvelope('assessment_results', AssessmentResult);

/**
 * A page whose records hold only the fields `fields=` selects (with their ids), or a list narrowed by
 * `ative` alone, which has no totals: the list and changes envelopes with every count optional.
 */
export const selectionEnvelope = <K extends string, T extends z.ZodObject>(key: K, item: T) =>
  z.strictObject({
    [key]: z.array(item.partial()),
    page: pagingFields.page.optional(),
    items_per_page: pagingFields.items_per_page,
    total_items: pagingFields.total_items.optional(),
    total_pages: pagingFields.total_pages.optional(),
    next_cursor: z.string().optional(),
    updated_since: z.iso.datetime().optional(),
    sync_until: z.iso.datetime().optional(),
  } as { [P in K]: z.ZodArray<z.ZodObject> } & Record<string, z.ZodType>);

export const EntitiesSelection = selectionEnvelope('entities', Entity);
export const StudentsSelection = selectionEnvelope('students', Student);
export const TeachersSelection = selectionEnvelope('teachers', Teacher);
export const TutorsSelection = selectionEnvelope('tutors', Tutor);
export const StaffsSelection = selectionEnvelope('staffs', Staff);
export const AcademicSessionsSelection = selectionEnvelope('academic_sessions', AcademicSession);
export const CoursesSelection = selectionEnvelope('courses', Course);
export const ClassesSelection = selectionEnvelope('classes', Class);
export const EnrollmentsSelection = selectionEnvelope('enrollments', Enrollment);
export const CategoriesSelection = selectionEnvelope('categories', Category);
export const ScoreScalesSelection = selectionEnvelope('score_scales', ScoreScale);
export const LineItemsSelection = selectionEnvelope('line_items', LineItem);
export const ResultsSelection = selectionEnvelope('results', Result);
export const AttendanceSelection = selectionEnvelope('attendance', Attendance);
export const AssessmentLineItemsSelection = selectionEnvelope('assessment_line_items', AssessmentLineItem);
export const AssessmentResultsSelection = selectionEnvelope('assessment_results', AssessmentResult);

/** A record, or the fields of it that `fields=` selects. */
export const selection = <T extends z.ZodObject>(record: T) => z.union([record, record.partial()]);

/** A page of the records changed in a time window (`?updated_since=`). */
const changesFields = {
  updated_since: z.iso.datetime(),
  sync_until: z.iso.datetime(),
  items_per_page: z.int().min(1).max(500),
  next_cursor: z.string().optional(),
};

export const changesEnvelope = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.strictObject({ [key]: z.array(item), ...changesFields } as {
    [P in K]: z.ZodArray<T>;
  } & typeof changesFields);

/** A page of the deletions in a time window (`/deleted`). */
export const deletionsEnvelope = <F extends string>(idField: F) =>
  z.strictObject({
    deleted: z.array(
      z.strictObject({ [idField]: z.uuid(), deleted_at: z.iso.datetime() } as { [P in F]: z.ZodUUID } & {
        deleted_at: z.ZodISODateTime;
      }),
    ),
    since: z.iso.datetime(),
    sync_until: z.iso.datetime(),
    items_per_page: z.int().min(1).max(500),
    next_cursor: z.string().optional(),
  });

export const EntitiesChanges = changesEnvelope('entities', Entity);
export const StudentsChanges = changesEnvelope('students', Student);
export const TeachersChanges = changesEnvelope('teachers', Teacher);
export const TutorsChanges = changesEnvelope('tutors', Tutor);
export const StaffsChanges = changesEnvelope('staffs', Staff);
export const AcademicSessionsChanges = changesEnvelope('academic_sessions', AcademicSession);
export const CoursesChanges = changesEnvelope('courses', Course);
export const ClassesChanges = changesEnvelope('classes', Class);
export const EnrollmentsChanges = changesEnvelope('enrollments', Enrollment);
export const CategoriesChanges = changesEnvelope('categories', Category);
export const ScoreScalesChanges = changesEnvelope('score_scales', ScoreScale);
export const LineItemsChanges = changesEnvelope('line_items', LineItem);
export const ResultsChanges = changesEnvelope('results', Result);
export const AttendanceChanges = changesEnvelope('attendance', Attendance);
export const AssessmentLineItemsChanges = changesEnvelope('assessment_line_items', AssessmentLineItem);
export const AssessmentResultsChanges = changesEnvelope('assessment_results', AssessmentResult);

export const EntitiesDeletions = deletionsEnvelope('entity_id');
export const StudentsDeletions = deletionsEnvelope('student_id');
export const TeachersDeletions = deletionsEnvelope('teacher_id');
export const TutorsDeletions = deletionsEnvelope('tutor_id');
export const StaffsDeletions = deletionsEnvelope('staff_id');
export const AcademicSessionsDeletions = deletionsEnvelope('academic_session_id');
export const CoursesDeletions = deletionsEnvelope('course_id');
export const ClassesDeletions = deletionsEnvelope('class_id');
export const EnrollmentsDeletions = deletionsEnvelope('enrollment_id');
export const CategoriesDeletions = deletionsEnvelope('category_id');
export const ScoreScalesDeletions = deletionsEnvelope('score_scale_id');
export const LineItemsDeletions = deletionsEnvelope('line_item_id');
export const ResultsDeletions = deletionsEnvelope('result_id');
export const AttendanceDeletions = deletionsEnvelope('attendance_id');
export const AssessmentLineItemsDeletions = deletionsEnvelope('assessment_line_item_id');
export const AssessmentResultsDeletions = deletionsEnvelope('assessment_result_id');
