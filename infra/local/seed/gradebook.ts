// The demo school group's gradebook setup for 2026/27: the categories its teachers grade by, weighted as
// Portuguese schools' assessment criteria usually are, and the scales results are given in: 0 to 20 in
// secondary school, levels 1 to 5 in the 2nd and 3rd cycles, and the 1st cycle's descriptive mentions.
// Deterministic: it draws from the tenant's generator.
import type { AcademicSession, Category, ScoreScale } from '../../../shared/schemas/records';
import type { Random } from './random';

export interface GradebookSetup {
  categories: Category[];
  scoreScales: ScoreScale[];
}

const categories = [
  { title: 'Testes', weight: 60 },
  { title: 'Trabalhos', weight: 25 },
  { title: 'Participação', weight: 15 },
];

const scales: Omit<ScoreScale, 'score_scale_id' | 'created_at' | 'updated_at'>[] = [
  { title: 'Escala de 0 a 20', type: 'numeric', minimum: 0, maximum: 20, values: [] },
  { title: 'Níveis de 1 a 5', type: 'numeric', minimum: 1, maximum: 5, values: [] },
  {
    title: 'Menções do 1.º ciclo',
    type: 'letter',
    minimum: null,
    maximum: null,
    values: ['Muito Bom', 'Bom', 'Suficiente', 'Insuficiente'],
  },
];

export function demoGradebook(
  r: Random,
  year: AcademicSession,
  stamp: () => { created_at: string; updated_at: string },
): GradebookSetup {
  return {
    categories: categories.map((category) => ({
      category_id: r.uuid(),
      ...category,
      school_year_id: year.academic_session_id,
      ...stamp(),
    })),
    scoreScales: scales.map((scale) => ({ score_scale_id: r.uuid(), ...scale, ...stamp() })),
  };
}
