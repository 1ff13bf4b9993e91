// The gradebook tables of the OneRoster CSV zip (OneRoster 1.2 CSV binding, section 3: categories.csv,
// scoreScales.csv, lineItems.csv, lineItemScoreScales.csv, results.csv), made through the objects the
// Gradebook REST binding serves (shared/oneroster/objects.ts), so CSV and REST agree field for field.
// As in the rostering tables, every reference names a row of the zip: a line item of a class left out,
// or a result of a user left out, is left out. A score scale is a class's own (the binding's scales each
// name a class; the tenant's are not served), at its class's school and course. A line item names its
// scale through lineItemScoreScales.csv, one row each, with the line item's sourcedId. A line item on one
// of the tenant's numeric scales, with no range of its own, gives the scale's range as its
// resultValueMin and resultValueMax (which the REST binding leaves out), so a tenant loading the zip can
// score it; the import keeps such a line item on its scale where it has it (infra/cli/oneroster-gradebook.ts).
import type { ObjectMaker, OneRosterLineItem } from '../oneroster/objects';
import type { Class, LineItem, ScoreScale } from '../schemas/records';
import { type DatedRow, type RosterSource, type Row, type Rows, rowsOf, rowsRead } from './roster-source';

/** The gradebook tables' column headers, in the binding's order. */
export const gradebookHeaders = {
  categories: ['sourcedId', 'status', 'dateLastModified', 'title', 'weight'],
  scoreScales: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'orgSourcedId',
    'courseSourcedId',
    'classSourcedId',
    'scoreScaleValue',
  ],
  lineItems: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'description',
    'assignDate',
    'dueDate',
    'classSourcedId',
    'categorySourcedId',
    'academicSessionSourcedId',
    'resultValueMin',
    'resultValueMax',
    'schoolSourcedId',
  ],
  lineItemScoreScales: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'lineItemSourcedId',
    'scoreScaleSourcedId',
  ],
  results: [
    'sourcedId',
    'status',
    'dateLastModified',
    'lineItemSourcedId',
    'studentSourcedId',
    'scoreStatus',
    'score',
    'scoreDate',
    'comment',
    'textScore',
    'classSourcedId',
    'inProgress',
    'incomplete',
    'late',
    'missing',
  ],
} as const;

export type GradebookTable = keyof typeof gradebookHeaders;

/** What the gradebook tables need of the rostering tables: the classes written and their terms, the users. */
export interface GradebookContext {
  maker: ObjectMaker;
  /** Each class of the zip with its terms of the zip, by id. */
  classes: ReadonlyMap<string, { cls: Class; terms: readonly string[] }>;
  /** The academic sessions of the zip. */
  sessionIds: ReadonlySet<string>;
  /** The user (person entity) of each role record of the zip, by the record's id. */
  roleOwners: ReadonlyMap<string, string>;
}

/**
 * What the gradebook tables keep between them: the ids of the categories and line items of the zip, and
 * the score scales (a few a class); never a line item or a result whole.
 */
export interface GradebookIndex {
  categoryIds: ReadonlySet<string>;
  /** The classes' own scales of the zip, by id. */
  scales: ReadonlyMap<string, ScoreScale & { class_id: string }>;
  /** The range of each of the tenant's numeric scales, which the binding has not, by id. */
  tenantRanges: ReadonlyMap<string, { min: number; max: number }>;
  lineItemIds: ReadonlySet<string>;
}

/** A number as a cell: as JavaScript writes it, none for null. */
const numberCell = (value: number | null | undefined) =>
  value === null || value === undefined ? undefined : String(value);

/** A date-time of the REST binding as the CSV binding's Date. */
const dateCell = (value: string) => value.slice(0, 10);

/**
 * A scale's values as the binding's List of Strings: each `{LHS:RHS}`, comma-separated in one cell
 * (csvLine quotes it).
 */
export const scoreScaleValueCell = (values: readonly { itemValueLHS: string; itemValueRHS: string }[]) =>
  values.map((v) => `{${v.itemValueLHS}:${v.itemValueRHS}}`).join(',');

/**
 * A line item as the zip has it, with its session; none for one whose class or category is not in the
 * zip, or that has no session there.
 */
function placed(
  item: LineItem,
  { maker, classes, sessionIds }: GradebookContext,
  { categoryIds, scales, tenantRanges }: Omit<GradebookIndex, 'lineItemIds'>,
): { object: OneRosterLineItem; session: string } | undefined {
  const cls = classes.get(item.class_id);
  if (!cls || !categoryIds.has(item.category_id)) return undefined;
  // The binding requires the line item's session: its grading period, else its class's first term.
  const session =
    item.grading_period_id && sessionIds.has(item.grading_period_id) ? item.grading_period_id : cls.terms[0];
  if (session === undefined) return undefined;
  const made = maker.lineItem(item, cls.cls.school_id, scales.has(item.score_scale_id ?? ''));
  const range = made.resultValueMax === undefined ? tenantRanges.get(item.score_scale_id ?? '') : undefined;
  return {
    object: range ? { ...made, resultValueMin: range.min, resultValueMax: range.max } : made,
    session,
  };
}

/** Reads the categories, scales and line items once for what the gradebook tables keep between them. */
export async function indexGradebook(read: RosterSource, context: GradebookContext): Promise<GradebookIndex> {
  const categoryIds = new Set<string>();
  for await (const category of read('categories')) categoryIds.add(category.category_id);
  const scales = new Map<string, ScoreScale & { class_id: string }>();
  const tenantRanges = new Map<string, { min: number; max: number }>();
  for await (const s of read('score_scales')) {
    if (s.class_id !== null && context.classes.has(s.class_id))
      scales.set(s.score_scale_id, { ...s, class_id: s.class_id });
    else if (s.class_id === null && s.minimum !== null && s.maximum !== null)
      tenantRanges.set(s.score_scale_id, { min: s.minimum, max: s.maximum });
  }
  const lineItemIds = new Set<string>();
  for await (const item of read('line_items'))
    if (placed(item, context, { categoryIds, scales, tenantRanges })) lineItemIds.add(item.line_item_id);
  return { categoryIds, scales, tenantRanges, lineItemIds };
}

/** The gradebook tables' rows, each table made from its records read again. */
export function gradebookTables(
  read: RosterSource,
  context: GradebookContext,
  index: GradebookIndex,
): Record<GradebookTable, Rows<DatedRow>> {
  const { maker, classes, roleOwners } = context;
  const dated = (row: Row, at: string): DatedRow => ({ row, at });
  const lineItems = (row: (object: OneRosterLineItem, session: string) => Row | undefined) =>
    rowsRead(read, 'line_items', (item) => {
      const found = placed(item, context, index);
      const made = found && row(found.object, found.session);
      // A line item's row naming its scale has the line item's sourcedId, and changes with it.
      return made ? [dated(made, item.updated_at)] : [];
    });
  return {
    categories: rowsRead(read, 'categories', (c) => {
      const o = maker.category(c);
      return [dated({ sourcedId: o.sourcedId, title: o.title, weight: numberCell(o.weight) }, c.updated_at)];
    }),
    scoreScales: rowsOf([...index.scales.values()], (s) => {
      const o = maker.scoreScale(s);
      const cls = classes.get(s.class_id)?.cls as Class;
      return dated(
        {
          sourcedId: o.sourcedId,
          title: o.title,
          type: o.type,
          orgSourcedId: cls.school_id,
          courseSourcedId: cls.course_id,
          classSourcedId: o.class.sourcedId,
          scoreScaleValue: scoreScaleValueCell(o.scoreScaleValue),
        },
        s.updated_at,
      );
    }),
    lineItems: lineItems((o, session) => ({
      sourcedId: o.sourcedId,
      title: o.title,
      description: o.description,
      assignDate: dateCell(o.assignDate),
      dueDate: dateCell(o.dueDate),
      classSourcedId: o.class.sourcedId,
      categorySourcedId: o.category.sourcedId,
      academicSessionSourcedId: session,
      resultValueMin: numberCell(o.resultValueMin),
      resultValueMax: numberCell(o.resultValueMax),
      schoolSourcedId: o.school.sourcedId,
    })),
    lineItemScoreScales: lineItems((o) => {
      const scale = o.scoreScale && index.scales.get(o.scoreScale.sourcedId);
      return scale
        ? {
            sourcedId: o.sourcedId,
            title: scale.title,
            lineItemSourcedId: o.sourcedId,
            scoreScaleSourcedId: scale.score_scale_id,
          }
        : undefined;
    }),
    results: rowsRead(read, 'results', (r) => {
      const user = roleOwners.get(r.student_id);
      if (user === undefined || !index.lineItemIds.has(r.line_item_id)) return [];
      const o = maker.result(r, user);
      return [
        dated(
          {
            sourcedId: o.sourcedId,
            lineItemSourcedId: o.lineItem.sourcedId,
            studentSourcedId: o.student.sourcedId,
            scoreStatus: o.scoreStatus,
            score: numberCell(o.score),
            scoreDate: o.scoreDate,
            comment: o.comment,
            textScore: o.textScore,
            classSourcedId: o.class.sourcedId,
          },
          r.updated_at,
        ),
      ];
    }),
  };
}
