// The OneRoster 1.2 Gradebook writes: PUT makes a category, line item or result under the sourcedId its
// path names, or replaces the one that has it (201 either way, as the binding's OpenAPI file answers), and
// DELETE deletes it (204). Each object becomes the native record it is served from (objects.ts), through
// the native writes (shared/records/write-records.ts), so it meets the same rules, references and school
// scope. What the binding's object does not carry is kept from the record it replaces: a category's school
// year, a line item's release to students and score scale. A new category is in the school year that
// holds the day it is made; a result's class is its line item's, its student the user's student record.
import * as z from 'zod/mini';
import { idsOfRole } from '../auth/reach';
import { readableObjectFields } from '../clients/profiles';
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError, NoLongerKeptError, StateConflictError } from '../domain/errors';
import type { RecordGroup } from '../domain/groups';
import { isUuid } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import { enterForStudents } from '../records/bulk-entry';
import { refuseStudentNotInClass } from '../records/class-students';
import type { RecordWriter } from '../records/record-writer';
import { refuseChangeOutsideSchools } from '../records/school-writes';
import { type PutBodies, putRecord, removeRecord } from '../records/write-records';
import type { GroupRecords } from '../schemas/records';
import {
  categoryInsertRequest,
  lineItemInsertRequest,
  lineItemResultsRequest,
  resultInsertRequest,
  scoreScaleInsertRequest,
} from '../schemas/requests';
import { objectFields } from './objects';
import { pathId, unknownObject } from './path-ids';
import { GRADEBOOK_PATH } from './paths';
import { scaleOf } from './scale-values';
import { OneRosterError } from './status-info';

/** A reference to another object: its sourcedId (its href and type are the binding's, and not read). */
export const ref = () => z.object({ sourcedId: z.string() });
/** A day as the binding writes it, a date or a date-time: the native record keeps the date, in UTC. */
export const day = () =>
  z.pipe(
    z.union([z.iso.date(), z.iso.datetime({ offset: true })]),
    z.transform((value: string) =>
      value.length === 10 ? value : new Date(value).toISOString().slice(0, 10),
    ),
  );
/** Every object's own fields: a PUT makes or keeps an object active; DELETE is how one is deleted. */
export const base = () => ({
  sourcedId: z.string(),
  status: z.optional(z.literal('active', 'must be active: DELETE deletes an object')),
});

const categoryBody = () =>
  z.object({ category: z.object({ ...base(), title: z.string(), weight: z.optional(z.number()) }) });

const scoreScaleBody = () =>
  z.object({
    scoreScale: z.object({
      ...base(),
      title: z.string(),
      type: z.string(),
      class: ref(),
      course: z.optional(ref()),
      scoreScaleValue: z
        .array(z.object({ itemValueLHS: z.string(), itemValueRHS: z.string() }))
        .check(z.minLength(1, 'must hold at least one value')),
    }),
  });

const lineItemBody = () =>
  z.object({
    lineItem: z.object({
      ...base(),
      title: z.string(),
      description: z.optional(z.string()),
      assignDate: day(),
      dueDate: day(),
      class: ref(),
      school: z.optional(ref()),
      category: ref(),
      gradingPeriod: z.optional(ref()),
      scoreScale: z.optional(ref()),
      resultValueMin: z.optional(z.number()),
      resultValueMax: z.optional(z.number()),
    }),
  });

/** A result as the binding writes it; its line item is the path's where it is posted under one. */
const resultObject = <L extends z.ZodMiniType>(lineItem: L) =>
  z.object({
    ...base(),
    lineItem,
    student: ref(),
    class: z.optional(ref()),
    scoreStatus: z.string(),
    score: z.optional(z.number()),
    textScore: z.optional(z.string()),
    scoreDate: day(),
    comment: z.optional(z.string()),
  });

const resultBody = () => z.object({ result: resultObject(ref()) });

/** A line item's results posted together: as many as one transaction takes (LIMITS.bulkEntries). */
const resultSetBody = () =>
  z.object({
    results: z
      .array(resultObject(z.optional(ref())))
      .check(
        z.minLength(1, 'must hold at least one result'),
        z.maxLength(
          LIMITS.bulkEntries,
          `at most ${LIMITS.bulkEntries} results: post a larger class in parts`,
        ),
      ),
  });

/** A result's grade, as the native result holds it. */
export const gradeOf = (result: {
  scoreStatus: string;
  score?: number;
  textScore?: string;
  scoreDate: string;
  comment?: string;
}) => ({
  status: result.scoreStatus,
  score: result.score ?? null,
  text_score: result.textScore ?? null,
  score_date: result.scoreDate,
  comment: result.comment ?? '',
});

/** The sourcedId in the path, in lower case as ids are stored: a PUT chooses it, so it must be a UUID. */
export function chosenId(request: ApiRequest): string {
  const id = request.path.sourcedId ?? '';
  if (!isUuid(id)) throw new OneRosterError(400, 'invaliddata', 'sourcedIds of this service are UUIDs.');
  return id.toLowerCase();
}

/** A body's object, valid as the binding has it, whose sourcedId must be the path's. */
export function objectOf<K extends string, T extends { sourcedId: string }>(
  schema: z.ZodMiniType<Record<K, T>>,
  key: K,
  request: ApiRequest,
  id: string,
): T {
  const object = validateBody(schema, request.body, [])[key];
  if (object.sourcedId.toLowerCase() !== id) {
    throw new InvalidInputError(`The ${key}'s sourcedId must be the one its path names.`, [
      { name: `${key}.sourcedId`, in: 'body', reason: "is not the path's sourcedId" },
    ]);
  }
  return object;
}

export const refused = (name: string, reason: string, message: string) =>
  new InvalidInputError(message, [{ name, in: 'body', reason }]);

export const lower = (id: string) => id.toLowerCase();

/** The objects written here, by their binding name, with the native field behind each optional field. */
const optionalFields = {
  categories: { weight: 'weight' },
  scoreScales: {},
  lineItems: {
    description: 'description',
    gradingPeriod: 'grading_period_id',
    resultValueMin: 'result_value_min',
    resultValueMax: 'result_value_max',
  },
  results: { score: 'score', textScore: 'text_score', comment: 'comment' },
  assessmentLineItems: {
    description: 'description',
    class: 'class_id',
    parentAssessmentLineItem: 'parent_id',
    scoreScale: 'score_scale_id',
    resultValueMin: 'result_value_min',
    resultValueMax: 'result_value_max',
  },
  assessmentResults: {
    score: 'score',
    textScore: 'text_score',
    scorePercentile: 'score_percentile',
    comment: 'comment',
  },
} as const;
type WrittenObject = keyof typeof optionalFields;

/** The fields of an object the client's profile keeps from it (shared/clients/profiles.ts). */
function hiddenFields(request: ApiRequest, object: WrittenObject): string[] {
  const readable = readableObjectFields(request.auth?.profile, object);
  return objectFields[object].filter((field) => !readable.includes(field));
}

/**
 * Refuses a body that sets a field its client's profile keeps from it: it writes none of them. Answers
 * those fields.
 */
function refuseHiddenFields(
  request: ApiRequest,
  object: WrittenObject,
  sent: readonly { name: string; body: object }[],
): string[] {
  const hidden = hiddenFields(request, object);
  const set = sent.flatMap(({ name, body }) =>
    hidden.filter((field) => field in body).map((field) => `${name}.${field}`),
  );
  if (set.length > 0) {
    throw new InvalidInputError(
      "The body sets fields this client's profile does not read.",
      set.map((name) => ({
        name,
        in: 'body' as const,
        reason: "not read by this client's profile, so not written by it either",
      })),
    );
  }
  return hidden;
}

/**
 * A client writes no field its profile keeps from it: a body that sets one is refused, and a replace
 * keeps the record's value of each (a PUT leaving one out would otherwise clear what it cannot read).
 * Answers the input with those values taken from the record as it is.
 */
export function withinProfile<T extends object>(
  request: ApiRequest,
  object: WrittenObject,
  sent: readonly { name: string; body: object }[],
  input: T,
  current: object | undefined,
): T {
  const hidden = refuseHiddenFields(request, object, sent);
  if (!current) return input;
  const natives: Record<string, string> = optionalFields[object];
  const kept = hidden.flatMap((field) => (natives[field] ? [natives[field]] : []));
  const record = current as Record<string, unknown>;
  return { ...input, ...Object.fromEntries(kept.map((field) => [field, record[field]])) };
}

/** A PUT's answer: 201, made or replaced, with no body (the binding's OpenAPI file) but the object's address. */
export const putAnswer = (request: ApiRequest, path: string, id: string): ApiResponse => ({
  status: 201,
  headers: { location: `${request.config.publicBaseUrl}${GRADEBOOK_PATH}/${path}/${id}` },
});

/** A PUT's bodies made alike, whether it replaces a record (`current`) or makes one. */
export const bothWays = <G extends RecordGroup>(
  body: (current: GroupRecords[G] | undefined) => unknown,
): PutBodies<G> => ({
  replacing: body,
  making: () => body(undefined),
});

/** The school year of a category made today. */
async function schoolYearToday(records: RecordRepository): Promise<string> {
  const today = new Date().toISOString().slice(0, 10);
  const schoolYear = await records.schoolYearOn(today);
  if (schoolYear === undefined) {
    throw refused(
      'category',
      'no school year holds today',
      'A category belongs to a school year, and none holds today: make it with POST /api/categories, naming its school year.',
    );
  }
  return schoolYear;
}

/** PUT /categories/{sourcedId}. */
export async function putCategory(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const category = objectOf(categoryBody(), 'category', request, id);
  const sent = [{ name: 'category', body: category }];
  await putRecord('categories', id, categoryInsertRequest(), request, writer, {
    replacing: (current) =>
      withinProfile(
        request,
        'categories',
        sent,
        {
          title: category.title,
          weight: category.weight ?? current.weight,
          school_year_id: current.school_year_id,
        },
        current,
      ),
    making: async () =>
      withinProfile(
        request,
        'categories',
        sent,
        {
          title: category.title,
          weight: category.weight ?? 1,
          school_year_id: await schoolYearToday(writer.records),
        },
        undefined,
      ),
  });
  return putAnswer(request, 'categories', id);
}

/**
 * PUT /scoreScales/{sourcedId}: a class's own scale. The sourcedId of one of the tenant's scales, which the
 * binding does not serve, is refused (409): it is not made a class's.
 */
export async function putScoreScale(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const scale = objectOf(scoreScaleBody(), 'scoreScale', request, id);
  const input = {
    title: scale.title,
    class_id: lower(scale.class.sourcedId),
    ...scaleOf(scale.type, scale.scoreScaleValue, 'scoreScale.'),
  };
  const sent = [{ name: 'scoreScale', body: scale }];
  await putRecord('score_scales', id, scoreScaleInsertRequest(), request, writer, {
    replacing: (current) => {
      if (current.class_id === null) {
        throw new StateConflictError(
          "This sourcedId is one of the tenant's score scales, which belong to no class.",
          [{ name: 'scoreScale.sourcedId', in: 'body', reason: "names a tenant's score scale" }],
        );
      }
      return withinProfile(request, 'scoreScales', sent, input, current);
    },
    making: () => withinProfile(request, 'scoreScales', sent, input, undefined),
  });
  return putAnswer(request, 'scoreScales', id);
}

/** DELETE /scoreScales/{sourcedId}: a class's own scale; the tenant's are not there (404). */
export async function deleteScoreScale(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = pathId(request, 'scoreScale');
  if ((await writer.records.get('score_scales', id))?.record.class_id === null) {
    throw unknownObject('scoreScale', id);
  }
  return deleteObject('score_scales', 'scoreScale')(request, writer);
}

/** PUT /lineItems/{sourcedId}: its school, where given, must be its class's. */
export async function putLineItem(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const item = objectOf(lineItemBody(), 'lineItem', request, id);
  const classId = lower(item.class.sourcedId);
  if (item.school && isUuid(classId)) {
    const school = (await writer.records.schoolsOfClasses([classId])).get(classId);
    if (school !== undefined && school !== lower(item.school.sourcedId)) {
      throw refused('lineItem.school', "is not the class's school", "A line item's school is its class's.");
    }
  }
  await putRecord(
    'line_items',
    id,
    lineItemInsertRequest(),
    request,
    writer,
    bothWays((current) =>
      withinProfile(
        request,
        'lineItems',
        [{ name: 'lineItem', body: item }],
        lineItemInput(item, current),
        current,
      ),
    ),
  );
  return putAnswer(request, 'lineItems', id);
}

/** A line item's native fields from the binding's object, and from the record it replaces, if any. */
function lineItemInput(
  item: z.output<ReturnType<typeof lineItemBody>>['lineItem'],
  current: GroupRecords['line_items'] | undefined,
) {
  return {
    class_id: item.class.sourcedId,
    title: item.title,
    description: item.description ?? '',
    category_id: item.category.sourcedId,
    score_scale_id: item.scoreScale?.sourcedId ?? current?.score_scale_id ?? null,
    result_value_min: item.resultValueMin ?? null,
    result_value_max: item.resultValueMax ?? null,
    grading_period_id: item.gradingPeriod?.sourcedId ?? null,
    assign_date: item.assignDate,
    due_date: item.dueDate,
    released: current?.released ?? false,
  };
}

/** The student record of each user (a person entity), by the users' sourcedIds: none for a user who is no student. */
async function studentsOfUsers(
  records: RecordRepository,
  userIds: readonly string[],
): Promise<(string | undefined)[]> {
  const ids = userIds.map(lower);
  const users = await records.getMany('entities', ids.filter(isUuid));
  return ids.map((id) => {
    const user = users.get(id);
    return user && idsOfRole(user, 'student')[0];
  });
}

/**
 * The student record of the user a result names (`object` the result's key in the body: `result`,
 * `assessmentResult`); 400 naming its `student` when the user is no student.
 */
export async function studentNamed(
  records: RecordRepository,
  object: string,
  userId: string,
  aResult: string,
): Promise<string> {
  const [studentId] = await studentsOfUsers(records, [userId]);
  if (!studentId) {
    throw refused(
      `${object}.student`,
      'is not a student',
      `${aResult}'s student is a user who is a student.`,
    );
  }
  return studentId;
}

/** PUT /results/{sourcedId}: for a line item, its class the line item's, its student a student user. */
export async function putResult(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const id = chosenId(request);
  const result = objectOf(resultBody(), 'result', request, id);
  const lineItemId = lower(result.lineItem.sourcedId);
  const item = isUuid(lineItemId) ? (await writer.records.get('line_items', lineItemId))?.record : undefined;
  if (!item) {
    throw refused('result.lineItem', 'names no line item', "A result's lineItem must name a line item.");
  }
  if (result.class && lower(result.class.sourcedId) !== item.class_id) {
    throw refused('result.class', "is not the line item's class", "A result's class is its line item's.");
  }
  const studentId = await studentNamed(writer.records, 'result', result.student.sourcedId, 'A result');
  await putRecord('results', id, resultInsertRequest(), request, writer, {
    ...bothWays((current) =>
      withinProfile(
        request,
        'results',
        [{ name: 'result', body: result }],
        { class_id: item.class_id, line_item_id: lineItemId, student_id: studentId, ...gradeOf(result) },
        current,
      ),
    ),
    check: refuseStudentNotInClass,
  });
  return putAnswer(request, 'results', id);
}

/**
 * POST /lineItems/{lineItemSourcedId}/results: the line item's results, each student's made, or replaced
 * where the student has one (a student has one result per line item), in one transaction
 * (shared/records/bulk-entry.ts), answered 201 with the sourcedId each was given by the one its poster
 * supplied (GUIDPairSetDType), a replaced result keeping its own, and in `Location` where they are read.
 */
export async function postResultsOfLineItem(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const lineItemId = pathId(request, 'lineItem');
  const { results } = validateBody(resultSetBody(), request.body, []);
  // A result posted replaces the student's whole: a client whose profile keeps a grade's field from it
  // sets none, and posts none at all, or a replace would clear what it cannot read.
  const hidden = refuseHiddenFields(
    request,
    'results',
    results.map((body, i) => ({ name: `results[${i}]`, body })),
  ).filter((field) => field in optionalFields.results);
  if (hidden.length > 0) {
    throw new InvalidInputError(
      `This client's profile keeps ${hidden.join(', ')} of results from it, which a POST would clear: PUT each result instead.`,
    );
  }
  const item = (await writer.records.getMany('line_items', [lineItemId])).get(lineItemId);
  if (!item) throw unknownObject('lineItem', lineItemId);
  // Another school's line item is not there for a client registered with schools.
  await refuseChangeOutsideSchools(request, 'line_items', lineItemId, writer.records);
  const problems = results.flatMap((result, i) => [
    ...(result.lineItem && lower(result.lineItem.sourcedId) !== lineItemId
      ? [{ name: `results[${i}].lineItem`, in: 'body' as const, reason: "is not the path's line item" }]
      : []),
    ...(result.class && lower(result.class.sourcedId) !== item.class_id
      ? [{ name: `results[${i}].class`, in: 'body' as const, reason: "is not the line item's class" }]
      : []),
  ]);
  const studentIds = await studentsOfUsers(
    writer.records,
    results.map((r) => r.student.sourcedId),
  );
  studentIds.forEach((id, i) => {
    if (id === undefined)
      problems.push({ name: `results[${i}].student`, in: 'body', reason: 'is not a student' });
  });
  if (problems.length > 0) {
    throw new InvalidInputError(
      "Every result must be of the line item's class, for a student user.",
      problems,
    );
  }
  const { results: grades } = validateBody(
    lineItemResultsRequest(),
    { results: results.map((result, i) => ({ student_id: studentIds[i], ...gradeOf(result) })) },
    [],
  );
  const written = await enterForStudents(request, writer, 'results', {
    field: 'results',
    classId: item.class_id,
    inputs: grades.map((grade) => ({ class_id: item.class_id, line_item_id: lineItemId, ...grade })),
  });
  // Where the line item's results are read: its class's collection of them.
  const location = `${request.config.publicBaseUrl}${GRADEBOOK_PATH}/classes/${item.class_id}/lineItems/${lineItemId}/results`;
  return {
    status: 201,
    headers: { location },
    body: {
      sourcedIdPairs: results.map((result, i) => ({
        suppliedSourcedId: result.sourcedId,
        allocatedSourcedId: written.records[i]?.result_id,
      })),
    },
    audit: written.audit,
  };
}

/**
 * DELETE /categories, /lineItems or /results/{sourcedId}: 204, or 409 while other records name it. The
 * binding has no 410: an object deleted before is one there is not (404).
 */
export const deleteObject =
  (group: RecordGroup, kind: string) =>
  async (request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> => {
    const id = pathId(request, kind);
    try {
      return await removeRecord(group, id, request, writer);
    } catch (error) {
      if (error instanceof NoLongerKeptError) {
        throw unknownObject(kind, id);
      }
      throw error;
    }
  };
