// What a OneRoster zip's gradebook rows leave to the tenant, read as a batch of them is written, and what
// the REST binding's writes would refuse of them: a new category's school year (the one that holds
// today, as the REST binding's PUT gives it); whether a line item's academic session is a grading period
// (its native grading period; a term or a school year is none), and that its school is its class's; a
// result's student record (the user's) and class (its line item's), a new one only for a student of the
// class. A score scale of the tenant's, which names no class, is not the binding's: no row changes or
// deletes one. A row refused here is reported on its line with why.
import { idsOfRole } from '../../shared/auth/reach';
import type { RecordRepository } from '../../shared/data/record-repository';
import type { RecordGroup } from '../../shared/domain/groups';
import { isUuid } from '../../shared/domain/identifiers';
import { enrollsAsStudent } from '../../shared/records/class-students';

/** A row's value on its way to the upsert, by the row's place in its batch. */
export interface Pending {
  i: number;
  value: unknown;
  defaults?: Record<string, unknown>;
  /** What the row says that the record does not hold, to be checked (a line item's school). */
  checks?: Record<string, string>;
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

const tenantScale = "sourcedId: names one of the tenant's score scales, which belong to no class";

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

const scoreScales: Preparer = async (records, values) => {
  const current = await records.getMany('score_scales', idsIn(values, 'score_scale_id'));
  const refused = new Map<number, string>();
  for (const v of values)
    if (current.get(String(fieldsOf(v).score_scale_id))?.class_id === null) refused.set(v.i, tenantScale);
  return refused;
};

/**
 * A line item's session is its grading period only where it is one; one naming no session is refused,
 * and so is a school that is not its class's. A line item on a scale of the tenant's, with no range of
 * its own, is exported with the scale's range (oneroster-gradebook-csv.ts): where the row's range is
 * that, and names no scale, the line item keeps its scale and no range. A row of lineItemScoreScales.csv
 * (a value of the line item's id and scale alone) sets the scale of a line item there is.
 */
const lineItems: Preparer = async (records, values) => {
  const refused = new Map<number, string>();
  const [sessions, current, schools] = await Promise.all([
    records.getMany('academic_sessions', idsIn(values, 'grading_period_id')),
    records.getMany('line_items', idsIn(values, 'line_item_id')),
    records.schoolsOfClasses(idsIn(values, 'class_id')),
  ]);
  const scaleIds = [...current.values()].flatMap((item) =>
    item.score_scale_id !== null && item.result_value_max === null ? [item.score_scale_id] : [],
  );
  const scales = await records.getMany('score_scales', [...new Set(scaleIds)]);
  for (const v of values) {
    const fields = fieldsOf(v);
    const item = current.get(String(fields.line_item_id));
    if (!('title' in fields)) {
      if (!item) refused.set(v.i, 'lineItemSourcedId: names no line item');
      continue;
    }
    const period = fields.grading_period_id;
    const session = typeof period === 'string' ? sessions.get(period) : undefined;
    const school = v.checks?.school_id;
    if (typeof period === 'string' && !session) {
      refused.set(v.i, 'academicSessionSourcedId: names no academic session');
      continue;
    }
    if (school && schools.has(String(fields.class_id)) && schools.get(String(fields.class_id)) !== school) {
      refused.set(v.i, "schoolSourcedId: is not the class's school");
      continue;
    }
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
  return refused;
};

const results: Preparer = async (records, values) => {
  const refused = new Map<number, string>();
  const userIds = idsIn(values, 'student_id');
  const [items, users, current, enrolled] = await Promise.all([
    records.getMany('line_items', idsIn(values, 'line_item_id')),
    records.getMany('entities', userIds),
    records.getMany('results', idsIn(values, 'result_id')),
    records.enrollmentLists('entities', userIds),
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
    // A result made is kept whatever the student's enrollment now, as the REST binding keeps it.
    else if (
      !current.has(String(fields.result_id)) &&
      !enrollsAsStudent(enrolled.get(String(fields.student_id)), item.class_id)
    )
      refused.set(v.i, `studentSourcedId: is not a student of class ${item.class_id}`);
    else v.value = { ...fields, class_id: item.class_id, student_id: student };
  }
  return refused;
};

/** The groups whose values are prepared before they are written. */
export const gradebookPreparers: Partial<Record<RecordGroup, Preparer>> = {
  categories,
  score_scales: scoreScales,
  line_items: lineItems,
  results,
};

/** Why a deletion a file asks for is refused, if it is: a tenant's score scale is not the file's. */
export const deletionGuards: Partial<
  Record<RecordGroup, (records: RecordRepository, id: string) => Promise<string | undefined>>
> = {
  score_scales: async (records, id) =>
    (await records.get('score_scales', id))?.record.class_id === null ? tenantScale : undefined,
};
