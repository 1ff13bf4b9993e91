// What each record group holds, as the API description says it (a tag's description). Kept out of the
// group descriptions (shared/domain/groups.ts) so that only the description's bundle carries the text.
import type { RecordGroup } from '../domain/groups';

export const groupAbout: { [G in RecordGroup]: string } = {
  entities: 'People and organisations: the base record of every student, teacher, tutor and staff member.',
  students: 'Students.',
  teachers: 'Teachers.',
  tutors: "Students' legal guardians.",
  staffs: 'Non-teaching staff.',
  academic_sessions: 'School years, and the terms, semesters and grading periods within them.',
  courses: 'Courses of the curriculum: a subject taught to some grades, offered by an organisation.',
  classes: 'Classes: a course taught at a school in some terms, with its enrollments.',
  enrollments: 'Who is in a class, and as what: student, teacher, aide, administrator, proctor or guardian.',
  categories:
    "The gradebook's categories of a school year, such as tests or homework, each with its weight in a grade.",
  score_scales:
    'Score scales: a numeric range, or an ordered list of letter values, that results are given in.',
  line_items:
    "A class's assignments and assessments, each in a category and scored on a scale or out of a maximum; its students and their guardians see one once it is released.",
  results:
    "Students' results for their classes' line items: where each stands, its score and a comment; a student and their guardians see one once its line item is released.",
  attendance:
    "Students' attendance: in a class on a date, or for the whole school day, marked present, absent, tardy or excused.",
  assessment_line_items:
    "Assessments: a district's benchmark or a state test, of a class or of none, perhaps part of another, scored on a scale or out of a range; read by staff and administrators.",
  assessment_results:
    "Students' results in assessments: where each stands, its score, the percentile it places the student at, and a comment.",
};
