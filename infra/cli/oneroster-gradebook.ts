// What a OneRoster zip's gradebook rows leave to the tenant, read as a batch of them is written: a new
// category's school year (the one that holds today, as the REST binding's PUT gives it), whether a line
// item's academic session is a grading period (its native grading period; a term or a school year is
// none), and a result's student record (the user's) and class (its line item's). A row naming no line
// item, or a user who is no student, is refused with why.
import { idsOfRole } from '../../shared/auth/reach';
import type { RecordRepository } from '../../shared/data/record-repository';
import type { RecordGroup } from '../../shared/domain/groups';
import { isUuid } from '../../shared/domain/identifiers';

/** A row's value on its way to the upsert, by the row's place in its batch. */
export interface Pending {
  i: number;
  value: unknown;
  defaults?: Record<string, unknown>;
}

/** Fills in what these values leave to the tenant; answers the rows refused, by place, with why. */
type Preparer = (records: RecordRepository, values: Pending[]) => Promise<Map<number, string>>;

const fieldsOf = (pending: Pending) => pending.value as Record<string, unknown>;

/** The distinct UUIDs of a field of these values (a file's bad ones are the validation's to refuse). */
const idsIn = (values: readonly Pending[], field: string) => [
  ...new Set(
    values.map((v) => fieldsOf(v)[field]).filter((id): id is string => typeof id === 'string' && isUuid(id)),
  ),
];

const categories: Preparer = async (records, values) => {
  const refused = new Map<number, string>();
  const schoolYear = await records.schoolYearOn(new Date().toISOString().slice(0, 10));
  if (schoolYear !== undefined) {
    for (const v of values) v.defaults = { ...v.defaults, school_year_id: schoolYear };
    return refused;
  }
  const known = await records.getMany('categories', idsIn(values, 'category_id'));
  for (const v of values)
    if (!known.has(String(fieldsOf(v).category_id)))
      refused.set(v.i, 'school_year_id: no school year holds today, so a new category has none');
  return refused;
};

/**
 * A line item's session is its grading period only where it is one. A line item on a scale of the
 * tenant's, with no range of its own, is exported with the scale's range (oneroster-gradebook-csv.ts):
 * where the row's range is that, and names no scale, the line item keeps its scale and no range.
 */
const lineItems: Preparer = async (records, values) => {
  const [sessions, current] = await Promise.all([
    records.getMany('academic_sessions', idsIn(values, 'grading_period_id')),
    records.getMany('line_items', idsIn(values, 'line_item_id')),
  ]);
  const scaleIds = [...current.values()].flatMap((item) =>
    item.score_scale_id !== null && item.result_value_max === null ? [item.score_scale_id] : [],
  );
  const scales = await records.getMany('score_scales', [...new Set(scaleIds)]);
  for (const v of values) {
    const fields = fieldsOf(v);
    const session = sessions.get(String(fields.grading_period_id));
    const item = current.get(String(fields.line_item_id));
    const scale = item?.result_value_max === null ? scales.get(item.score_scale_id ?? '') : undefined;
    const scaleRange =
      scale !== undefined &&
      fields.score_scale_id === undefined &&
      fields.result_value_min === scale.minimum &&
      fields.result_value_max === scale.maximum;
    v.value = {
      ...fields,
      ...(session?.type === 'grading_period' ? {} : { grading_period_id: null }),
      ...(scaleRange ? { result_value_min: item?.result_value_min, result_value_max: null } : {}),
    };
  }
  return new Map();
};

const results: Preparer = async (records, values) => {
  const refused = new Map<number, string>();
  const [items, users] = await Promise.all([
    records.getMany('line_items', idsIn(values, 'line_item_id')),
    records.getMany('entities', idsIn(values, 'student_id')),
  ]);
  for (const v of values) {
    const fields = fieldsOf(v);
    const item = items.get(String(fields.line_item_id));
    const user = users.get(String(fields.student_id));
    const student = user && idsOfRole(user, 'student')[0];
    if (!item) refused.set(v.i, 'lineItemSourcedId: names no line item');
    else if (fields.class_id !== undefined && fields.class_id !== item.class_id)
      refused.set(v.i, "classSourcedId: is not the line item's class");
    else if (!student) refused.set(v.i, 'studentSourcedId: names no user who is a student');
    else v.value = { ...fields, class_id: item.class_id, student_id: student };
  }
  return refused;
};

/** The groups whose values are prepared before they are written. */
export const gradebookPreparers: Partial<Record<RecordGroup, Preparer>> = {
  categories,
  line_items: lineItems,
  results,
};
