// The demo school group's gradebook setup for 2026/27: the categories its teachers grade by, weighted as
// Portuguese schools' assessment criteria usually are, and the scales results are given in: 0 to 20 in
// secondary school, levels 1 to 5 in the 2nd and 3rd cycles, and the 1st cycle's descriptive mentions.
// Each class has the first grading period's work: a test scored in percent, released to its students,
// and a group project on the 0 to 20 scale, not yet released. Every student of a class has their test
// graded; the projects are not in yet. Every student sat last June's national assessment, whose results
// are in. Deterministic: it draws from the tenant's generator.
import type {
  AcademicSession,
  AssessmentLineItem,
  AssessmentResult,
  Category,
  Class,
  Enrollment,
  LineItem,
  Result,
  ScoreScale,
  Student,
} from '../../../shared/schemas/records';
import type { Random } from './random';

export interface GradebookSetup {
  categories: Category[];
  scoreScales: ScoreScale[];
  lineItems: LineItem[];
  results: Result[];
}

const categories = [
  { title: 'Testes', weight: 60 },
  { title: 'Trabalhos', weight: 25 },
  { title: 'Participação', weight: 15 },
];

const scales: Omit<ScoreScale, 'score_scale_id' | 'created_at' | 'updated_at'>[] = [
  { title: 'Escala de 0 a 20', type: 'numeric', class_id: null, minimum: 0, maximum: 20, values: [] },
  { title: 'Níveis de 1 a 5', type: 'numeric', class_id: null, minimum: 1, maximum: 5, values: [] },
  {
    title: 'Menções do 1.º ciclo',
    type: 'letter',
    class_id: null,
    minimum: null,
    maximum: null,
    values: ['Muito Bom', 'Bom', 'Suficiente', 'Insuficiente'],
  },
];

/** The first grading period's work of every class, in the categories and on the scales above. */
const work = [
  {
    title: 'Teste de avaliação 1',
    description: 'Primeiro teste escrito do período.',
    category: 0,
    scale: undefined,
    assign_date: '2026-10-05',
    due_date: '2026-10-05',
    released: true,
  },
  {
    title: 'Trabalho de grupo',
    description: 'Trabalho de pesquisa em grupo, apresentado à turma.',
    category: 1,
    scale: 0,
    assign_date: '2026-09-28',
    due_date: '2026-10-23',
    released: false,
  },
] as const;

/** What the gradebook is drawn for: the roster's sessions, classes and enrollments, and the students. */
export interface GradedRoster {
  sessions: readonly AcademicSession[];
  classes: readonly Class[];
  enrollments: readonly Enrollment[];
  students: readonly Student[];
}

export function demoGradebook(
  r: Random,
  { sessions, classes, enrollments, students }: GradedRoster,
  stamp: () => { created_at: string; updated_at: string },
): GradebookSetup {
  const year = sessions.find((session) => session.type === 'school_year') as AcademicSession;
  const period = sessions.find((session) => session.type === 'grading_period') as AcademicSession;
  const setup = {
    categories: categories.map((category) => ({
      category_id: r.uuid(),
      ...category,
      school_year_id: year.academic_session_id,
      ...stamp(),
    })),
    scoreScales: scales.map((scale) => ({ score_scale_id: r.uuid(), ...scale, ...stamp() })),
  };
  const lineItems = classes.flatMap((cls) =>
    work.map(({ category, scale, ...item }): LineItem => {
      const onScale = scale === undefined ? undefined : setup.scoreScales[scale];
      return {
        line_item_id: r.uuid(),
        class_id: cls.class_id,
        ...item,
        category_id: (setup.categories[category] as Category).category_id,
        score_scale_id: onScale?.score_scale_id ?? null,
        result_value_min: onScale ? null : 0,
        result_value_max: onScale ? null : 100,
        grading_period_id: period.academic_session_id,
        ...stamp(),
      };
    }),
  );
  return { ...setup, lineItems, results: testResults(r, lineItems, enrollments, students, stamp) };
}

/**
 * A class's own scale, beside the school group's: the teacher of the first class (in id order, the first a
 * OneRoster client lists) marks oral presentations with descriptive levels. Drawn last, so that every id
 * drawn before it is the same as without it.
 */
export function demoClassScale(
  r: Random,
  cls: Class,
  stamp: () => { created_at: string; updated_at: string },
): ScoreScale {
  return {
    score_scale_id: r.uuid(),
    title: 'Apresentações orais',
    type: 'letter',
    class_id: cls.class_id,
    minimum: null,
    maximum: null,
    values: ['Excelente', 'Bom', 'A melhorar'],
    ...stamp(),
  };
}

/** Each student's result in their classes' released test: graded, a percentage mostly between 50 and 95. */
function testResults(
  r: Random,
  lineItems: readonly LineItem[],
  enrollments: readonly Enrollment[],
  students: readonly Student[],
  stamp: () => { created_at: string; updated_at: string },
): Result[] {
  const studentOf = new Map(students.map((student) => [student.entity_id, student.student_id]));
  const tests = new Map(lineItems.filter((item) => item.released).map((item) => [item.class_id, item]));
  return enrollments.flatMap((enrollment): Result[] => {
    const test = tests.get(enrollment.class_id);
    const studentId = studentOf.get(enrollment.entity_id);
    if (enrollment.role !== 'student' || !test || !studentId) return [];
    return [
      {
        result_id: r.uuid(),
        class_id: test.class_id,
        line_item_id: test.line_item_id,
        student_id: studentId,
        status: 'fully graded',
        score: Math.min(100, r.int(35, 80) + r.int(0, 20)),
        text_score: null,
        score_date: '2026-10-12',
        comment: '',
        ...stamp(),
      },
    ];
  });
}

/** The national assessment the demo's students sat, and the subjects it tested, each scored in percent. */
const assessment = {
  title: 'Provas de Aferição 2026',
  description: 'Provas nacionais de aferição, aplicadas pelo IAVE em todas as escolas.',
  subjects: ['Português', 'Matemática'],
};

export interface AssessmentSetup {
  assessmentLineItems: AssessmentLineItem[];
  assessmentResults: AssessmentResult[];
}

/**
 * The national assessment, of no class, reported on the levels scale, and its subjects as its parts,
 * each scored in percent, with every student's result in each: a percentage, and the percentile it
 * places the student at among the demo's students. Drawn after everything else, so that every id drawn
 * before is the same as without it.
 */
export function demoAssessments(
  r: Random,
  students: readonly Student[],
  levels: ScoreScale,
  stamp: () => { created_at: string; updated_at: string },
): AssessmentSetup {
  const item = (title: string, description: string, parentId: string | null): AssessmentLineItem => ({
    assessment_line_item_id: r.uuid(),
    class_id: null,
    parent_id: parentId,
    title,
    description,
    score_scale_id: null,
    result_value_min: 0,
    result_value_max: 100,
    ...stamp(),
  });
  const whole = {
    ...item(assessment.title, assessment.description, null),
    score_scale_id: levels.score_scale_id,
    result_value_min: null,
    result_value_max: null,
  };
  const parts = assessment.subjects.map((subject) =>
    item(`${assessment.title}: ${subject}`, `A prova de ${subject}.`, whole.assessment_line_item_id),
  );
  const assessmentResults = parts.flatMap((part) => {
    const scores = students.map(() => r.int(30, 75) + r.int(0, 25));
    const below = (score: number) => scores.filter((other) => other < score).length;
    return students.map(
      (student, i): AssessmentResult => ({
        assessment_result_id: r.uuid(),
        class_id: null,
        assessment_line_item_id: part.assessment_line_item_id,
        student_id: student.student_id,
        status: 'fully graded',
        score: scores[i] as number,
        text_score: null,
        score_percentile: Math.round((100 * below(scores[i] as number)) / scores.length),
        score_date: '2026-06-19',
        comment: '',
        ...stamp(),
      }),
    );
  });
  return { assessmentLineItems: [whole, ...parts], assessmentResults };
}
