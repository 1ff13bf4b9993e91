// The rule of a student's grade (docs/api.md, "A student's grades"), worked through by hand.
import { describe, expect, it } from 'vitest';
import type { Category, LineItem, Result, ScoreScale } from '../schemas/records';
import { percentOf, periodGrades } from './grade-average';

const times = { created_at: '2026-10-01T00:00:00Z', updated_at: '2026-10-01T00:00:00Z' };
const category = (id: string, weight: number): Category => ({
  category_id: id,
  title: id,
  weight,
  school_year_id: 'y',
  ...times,
});
const item = (id: string, categoryId: string, extra: Partial<LineItem> = {}): LineItem => ({
  line_item_id: id,
  class_id: 'c1',
  title: id,
  description: '',
  category_id: categoryId,
  score_scale_id: null,
  result_value_min: null,
  result_value_max: 100,
  grading_period_id: 'p1',
  assign_date: '2026-10-01',
  due_date: '2026-10-02',
  released: true,
  ...times,
  ...extra,
});
const result = (lineItemId: string, score: number | null, extra: Partial<Result> = {}): Result => ({
  result_id: `r-${lineItemId}`,
  class_id: 'c1',
  line_item_id: lineItemId,
  student_id: 's1',
  status: 'fully graded',
  score,
  text_score: null,
  score_date: '2026-10-03',
  comment: '',
  ...times,
  ...extra,
});
const letters: ScoreScale = {
  score_scale_id: 'mentions',
  title: 'Menções',
  type: 'letter',
  class_id: null,
  minimum: null,
  maximum: null,
  values: ['Muito Bom', 'Bom', 'Suficiente', 'Insuficiente'],
  ...times,
};
const twenty: ScoreScale = {
  ...letters,
  score_scale_id: 'twenty',
  type: 'numeric',
  minimum: 0,
  maximum: 20,
  values: [],
};

describe("a result's percentage", () => {
  it('is its place in its range: out of a maximum, on a numeric scale, or by letter', () => {
    expect(percentOf(result('a', 72), item('a', 't'), undefined)).toBe(72);
    expect(
      percentOf(result('a', 15), item('a', 't', { result_value_min: 10, result_value_max: 20 }), undefined),
    ).toBe(50);
    expect(percentOf(result('a', 16), item('a', 't'), twenty)).toBe(80);
    expect(percentOf(result('a', null, { text_score: 'Bom' }), item('a', 't'), letters)).toBeCloseTo(
      66.667,
      2,
    );
    expect(percentOf(result('a', null, { text_score: 'Insuficiente' }), item('a', 't'), letters)).toBe(0);
  });

  it('is nothing for an exempt result, one not scored yet, or a letter of another scale', () => {
    expect(percentOf(result('a', 90, { status: 'exempt' }), item('a', 't'), undefined)).toBeUndefined();
    expect(percentOf(result('a', null, { status: 'submitted' }), item('a', 't'), undefined)).toBeUndefined();
    expect(percentOf(result('a', null, { text_score: 'A+' }), item('a', 't'), letters)).toBeUndefined();
  });
});

describe("a period's grade", () => {
  it('weighs each category average by its weight, over the categories that have results', () => {
    const items = new Map(
      [item('t1', 'tests'), item('t2', 'tests'), item('h1', 'homework'), item('p1', 'participation')].map(
        (i) => [i.line_item_id, i] as const,
      ),
    );
    const categories = new Map(
      [category('tests', 60), category('homework', 25), category('participation', 15)].map(
        (c) => [c.category_id, c] as const,
      ),
    );
    const grades = periodGrades(
      [result('t1', 80), result('t2', 60), result('h1', 90), result('p1', null, { status: 'not submitted' })],
      items,
      new Map(),
      categories,
    );
    // Tests average 70 (weight 60), homework 90 (weight 25); participation has no score yet.
    expect(grades).toEqual([
      {
        class_id: 'c1',
        grading_period_id: 'p1',
        average: 75.9,
        categories: [
          { category_id: 'homework', weight: 25, average: 90, results: 1 },
          { category_id: 'tests', weight: 60, average: 70, results: 2 },
        ],
      },
    ]);
  });
});
