// How a student's grade for a class's grading period is worked out from their results (docs/api.md,
// "A student's grades"). Each result that has a score counts as a percentage of its line item's range:
// a number from the line item's minimum (0 when it gives none) to its maximum, or from its numeric
// scale's minimum to maximum; a letter value by its place on its letter scale, the best 100 and the
// worst 0. Exempt results, and results with no score yet, count for nothing. A category's average is
// the mean of its results' percentages; the grade is the average of the categories that have one,
// each weighted by its `weight`. Line items of no grading period form their own period (null).
import type { Category, LineItem, Result, ScoreScale } from '../schemas/records';

export interface CategoryAverage {
  category_id: string;
  weight: number;
  average: number;
  results: number;
}

export interface PeriodGrade {
  class_id: string;
  grading_period_id: string | null;
  average: number;
  categories: CategoryAverage[];
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** A result's score as a percentage of its line item's range, if it counts. */
export function percentOf(
  result: Pick<Result, 'status' | 'score' | 'text_score'>,
  item: Pick<LineItem, 'result_value_min' | 'result_value_max'>,
  scale: Pick<ScoreScale, 'type' | 'minimum' | 'maximum' | 'values'> | undefined,
): number | undefined {
  if (result.status === 'exempt') return undefined;
  if (scale?.type === 'letter') {
    const place = result.text_score === null ? -1 : scale.values.indexOf(result.text_score);
    if (place < 0) return undefined;
    return scale.values.length === 1
      ? 100
      : ((scale.values.length - 1 - place) / (scale.values.length - 1)) * 100;
  }
  const low = scale ? scale.minimum : (item.result_value_min ?? 0);
  const high = scale ? scale.maximum : item.result_value_max;
  if (result.score === null || low === null || high === null || high <= low) return undefined;
  return ((Math.min(high, Math.max(low, result.score)) - low) / (high - low)) * 100;
}

/** The grades of a student's results, per class and grading period, by the rule above. */
export function periodGrades(
  results: readonly Result[],
  lineItems: ReadonlyMap<string, LineItem>,
  scales: ReadonlyMap<string, ScoreScale>,
  categories: ReadonlyMap<string, Category>,
): PeriodGrade[] {
  const periods = new Map<
    string,
    { classId: string; period: string | null; byCategory: Map<string, number[]> }
  >();
  for (const result of results) {
    const item = lineItems.get(result.line_item_id);
    if (!item) continue;
    const percent = percentOf(
      result,
      item,
      item.score_scale_id ? scales.get(item.score_scale_id) : undefined,
    );
    if (percent === undefined) continue;
    const key = `${item.class_id}#${item.grading_period_id ?? ''}`;
    const period = periods.get(key) ?? {
      classId: item.class_id,
      period: item.grading_period_id,
      byCategory: new Map(),
    };
    periods.set(key, period);
    period.byCategory.set(item.category_id, [...(period.byCategory.get(item.category_id) ?? []), percent]);
  }
  return [...periods.values()]
    .map(({ classId, period, byCategory }) => {
      const averaged = [...byCategory].map(([categoryId, percents]) => ({
        category_id: categoryId,
        weight: categories.get(categoryId)?.weight ?? 0,
        average: percents.reduce((sum, p) => sum + p, 0) / percents.length,
        results: percents.length,
      }));
      const weights = averaged.reduce((sum, c) => sum + c.weight, 0);
      const average =
        weights > 0
          ? averaged.reduce((sum, c) => sum + c.weight * c.average, 0) / weights
          : averaged.reduce((sum, c) => sum + c.average, 0) / averaged.length;
      return {
        class_id: classId,
        grading_period_id: period,
        average: oneDecimal(average),
        categories: averaged
          .map((c) => ({ ...c, average: oneDecimal(c.average) }))
          .sort((a, b) => a.category_id.localeCompare(b.category_id)),
      };
    })
    .sort((a, b) =>
      `${a.class_id}#${a.grading_period_id ?? ''}`.localeCompare(
        `${b.class_id}#${b.grading_period_id ?? ''}`,
      ),
    );
}
