// What clients send to create or replace records (the specification's insert requests): one schema
// per request, used to validate bodies here and by the bulk import, within the limits of domain/limits.ts.
// Each schema is built on its first use and kept: a write handler validates one group's bodies, and
// building every group's schemas at import was most of a write handler's cold start.
import * as z from 'zod/mini';
import { attendanceStatuses } from '../domain/attendance';
import { resultStatuses, scoreScaleTypes } from '../domain/gradebook';
import { isValidIban } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';
import { academicSessionTypes, classTypes, enrollmentRoles, orgTypes } from '../domain/rostering';

/** A schema built on the first call and the same instance after, so the API document still names it once. */
const lazily = <T>(build: () => T): (() => T) => {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
};

const atMost = (max: number, unit = 'characters') => `at most ${max} ${unit}`;
const text = (max: number = LIMITS.text) => z.string().check(z.maxLength(max, atMost(max)));
const requiredText = (max: number) => text(max).check(z.minLength(1, 'must not be empty'));
const optionalText = (max?: number) => z._default(text(max), '');
const list = <T extends z.ZodMiniType>(item: T) =>
  z.array(item).check(z.maxLength(LIMITS.listItems, atMost(LIMITS.listItems, 'entries')));

const date = /* @__PURE__ */ lazily(() => z.iso.date('must be a date that exists, written YYYY-MM-DD'));
/** Ids are stored in lower case, as the service writes them; a client may send either. */
const id = () =>
  z.pipe(
    z.uuid('must be a UUID'),
    z.transform((value: string) => value.toLowerCase()),
  );

const addressInput = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    address: text(),
    address2: optionalText(),
    zone_code: optionalText(20),
    postal_code: optionalText(20),
    city: optionalText(100),
    country: optionalText(100),
  }),
);

const contactInput = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    contact: requiredText(200),
    contact_type_name: requiredText(50),
  }),
);

/** An identification document to add; each group's API component is its own instance of this schema. */
export const identificationDocumentInsertRequest = () =>
  z
    .strictObject({
      init_date: date(),
      end_date: date(),
      identification_document_value: requiredText(100),
      identification_document_type_name: requiredText(50),
    })
    .check(
      z.refine((d) => d.init_date <= d.end_date, {
        message: 'must not be after end_date',
        path: ['init_date'],
      }),
    );

/** The document the document routes take, and each person's insert request lists. */
export const documentInsertRequest = /* @__PURE__ */ lazily(identificationDocumentInsertRequest);

const bankAccountInput = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    back_account_number: z.pipe(
      z
        .string()
        .check(z.maxLength(34, atMost(34)), z.refine(isValidIban, 'must be an IBAN with valid check digits')),
      z.transform((iban: string) => iban.replace(/\s+/g, '').toUpperCase()),
    ),
    country_name: optionalText(100),
    entity_bank_account_type: z._default(text(20), 'IBAN'),
  }),
);

const contactFields = /* @__PURE__ */ lazily(() => ({
  email: z
    .email('must be an e-mail address')
    .check(z.maxLength(LIMITS.emailChars, atMost(LIMITS.emailChars))),
  addresses: z._default(list(addressInput()), []),
  contacts: z._default(list(contactInput()), []),
  documents: z._default(list(documentInsertRequest()), []),
  bankAccounts: z._default(list(bankAccountInput()), []),
}));

const personFields = /* @__PURE__ */ lazily(() => ({
  processnumber: requiredText(LIMITS.processnumberChars),
  ative: z.boolean(),
  name: requiredText(200),
  gender: optionalText(50),
  photobase64: z._default(
    z.string().check(
      z.maxLength(LIMITS.photoBase64Chars, atMost(LIMITS.photoBase64Chars, 'characters of Base64')),
      z.refine((s) => s === '' || /^[A-Za-z0-9+/]+={0,2}$/.test(s), 'must be Base64 or empty'),
    ),
    '',
  ),
  birth_date: date(),
  naturality: optionalText(100),
  nationality: optionalText(100),
  marital_status: optionalText(50),
  deceased: z._default(z.boolean(), false),
  ...contactFields(),
  /** The person entity this record belongs to; without it, a new entity is created. */
  entity_id: z.optional(id()),
}));

const bankAccountsAlias = /* @__PURE__ */ lazily(() => ({
  bank_accounts: z.optional(list(bankAccountInput())),
}));

type BankAccountInput = z.output<ReturnType<typeof bankAccountInput>>;
type WithBankAccounts = { bank_accounts?: BankAccountInput[] | undefined; bankAccounts: BankAccountInput[] };

/** The specification uses two keys for the bank-account array: a body may use either, not both. */
const oneBankAccountKey = /* @__PURE__ */ lazily(() =>
  z.superRefine((body: WithBankAccounts, context) => {
    if (body.bank_accounts !== undefined && body.bankAccounts.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['bank_accounts'],
        message: 'send bankAccounts or bank_accounts, not both',
      });
    }
  }),
);

/** Keeps the bank-account array as bankAccounts. A trailing transform, not a preprocess, so the body stays describable as JSON Schema. */
function keepBankAccounts<B extends WithBankAccounts>({ bank_accounts, ...body }: B) {
  return { ...body, bankAccounts: bank_accounts ?? body.bankAccounts };
}

/** A body with both bank-account keys checked, read as one bankAccounts array. */
const insertRequest = <S extends z.ZodMiniObject>(object: S) =>
  z.pipe(
    object.check(oneBankAccountKey() as z.core.$ZodCheck<z.output<S>>),
    z.transform((body: z.output<S>) => keepBankAccounts(body as z.output<S> & WithBankAccounts)),
  );

const personObject = /* @__PURE__ */ lazily(() =>
  z.strictObject({ ...personFields(), ...bankAccountsAlias() }),
);

export const studentInsertRequest = /* @__PURE__ */ lazily(() => insertRequest(personObject()));
export const teacherInsertRequest = /* @__PURE__ */ lazily(() => insertRequest(personObject()));
export const staffInsertRequest = /* @__PURE__ */ lazily(() => insertRequest(personObject()));
export const tutorInsertRequest = /* @__PURE__ */ lazily(() =>
  insertRequest(
    z.extend(personObject(), {
      student_ids: z.array(id()).check(
        z.minLength(1, 'a tutor is in charge of at least one student'),
        z.maxLength(LIMITS.tutorStudents, atMost(LIMITS.tutorStudents, 'students')),
        z.refine((ids) => new Set(ids).size === ids.length, 'must not repeat a student'),
      ),
    }),
  ),
);
export const entityInsertRequest = /* @__PURE__ */ lazily(() =>
  insertRequest(
    z
      .strictObject({
        entity_type: z.enum(['person', 'organisation'], 'must be person or organisation'),
        name: requiredText(200),
        ...contactFields(),
        ...bankAccountsAlias(),
        org_type: z.optional(z.enum(orgTypes, `must be one of ${orgTypes.join(', ')}`)),
        parent_id: z.optional(z.nullable(id())),
      })
      .check(
        z.superRefine((body, context) => {
          if (body.entity_type !== 'person') return;
          for (const field of ['org_type', 'parent_id'] as const) {
            if (body[field] !== undefined && body[field] !== null)
              context.addIssue({ code: 'custom', path: [field], message: 'only an organisation has one' });
          }
        }),
      ),
  ),
);

/** A list of short texts (grades, subjects, periods), none repeated. */
const texts = (max: number) =>
  z._default(
    list(requiredText(max)).check(
      z.refine((values) => new Set(values).size === values.length, 'must not repeat a value'),
    ),
    [],
  );

/** Whether a date range is in order, where both ends are given. */
const ordered = (from: string | null | undefined, to: string | null | undefined) =>
  from === null || from === undefined || to === null || to === undefined || from <= to;

export const academicSessionInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      title: requiredText(200),
      type: z.enum(academicSessionTypes, `must be one of ${academicSessionTypes.join(', ')}`),
      start_date: date(),
      end_date: date(),
      parent_id: z._default(z.nullable(id()), null),
      school_year: z.string().check(z.regex(/^\d{4}$/, 'must be a year, written YYYY')),
    })
    .check(
      z.refine((s) => ordered(s.start_date, s.end_date), {
        message: 'must not be after end_date',
        path: ['start_date'],
      }),
    ),
);

export const courseInsertRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    title: requiredText(200),
    course_code: optionalText(50),
    grades: texts(20),
    subjects: texts(100),
    org_id: id(),
  }),
);

export const classInsertRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    title: requiredText(200),
    class_code: optionalText(50),
    class_type: z._default(z.enum(classTypes, `must be one of ${classTypes.join(', ')}`), 'scheduled'),
    course_id: id(),
    school_id: id(),
    term_ids: z.array(id()).check(
      z.minLength(1, 'a class runs in at least one term'),
      z.maxLength(LIMITS.classTerms, atMost(LIMITS.classTerms, 'terms')),
      z.refine((ids) => new Set(ids).size === ids.length, 'must not repeat a term'),
    ),
    periods: texts(50),
    location: optionalText(100),
  }),
);

export const enrollmentInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      class_id: id(),
      entity_id: id(),
      role: z.enum(enrollmentRoles, `must be one of ${enrollmentRoles.join(', ')}`),
      primary: z._default(z.boolean(), false),
      begin_date: z._default(z.nullable(date()), null),
      end_date: z._default(z.nullable(date()), null),
    })
    .check(
      z.refine((e) => ordered(e.begin_date, e.end_date), {
        message: 'must not be after end_date',
        path: ['begin_date'],
      }),
    ),
);

/**
 * A weight or score: a finite number (JSON gives no other) that DynamoDB stores as it is sent: at most
 * 1e15 either way, and 0 or at least 1e-9 from it. Beyond, the SDK cannot write it exactly or DynamoDB
 * refuses it; neither is a score or a weight.
 */
const finite = () =>
  z
    .number('must be a number')
    .check(
      z.refine(
        (n: number) => Math.abs(n) <= 1e15 && (n === 0 || Math.abs(n) >= 1e-9),
        'must be 0, or between 1e-9 and 1e15 either way',
      ),
    );

export const categoryInsertRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    title: requiredText(200),
    weight: z._default(
      finite().check(
        z.minimum(0, 'must not be negative'),
        z.maximum(LIMITS.categoryWeight, `must be at most ${LIMITS.categoryWeight}`),
      ),
      1,
    ),
    school_year_id: id(),
  }),
);

/** A numeric scale gives its range, a letter scale its values, best first; neither gives the other's fields. */
export const scoreScaleInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      title: requiredText(200),
      type: z.enum(scoreScaleTypes, `must be one of ${scoreScaleTypes.join(', ')}`),
      class_id: z._default(z.nullable(id()), null),
      minimum: z._default(z.nullable(finite()), null),
      maximum: z._default(z.nullable(finite()), null),
      values: z._default(
        z.array(requiredText(20)).check(
          z.maxLength(LIMITS.scoreScaleValues, atMost(LIMITS.scoreScaleValues, 'values')),
          z.refine((values) => new Set(values).size === values.length, 'must not repeat a value'),
        ),
        [],
      ),
    })
    .check(
      z.superRefine((s, context) => {
        const problem = scaleProblem(s);
        if (problem) context.addIssue({ code: 'custom', path: [problem[0]], message: problem[1] });
      }),
    ),
);

/** What makes a scale neither kind: the field to name and why. */
function scaleProblem(s: {
  type: string;
  minimum: number | null;
  maximum: number | null;
  values: string[];
}): [string, string] | undefined {
  const ranged = s.minimum !== null && s.maximum !== null;
  if (s.type === 'numeric' && !ranged) return ['minimum', 'a numeric scale gives its minimum and maximum'];
  if (ranged && (s.minimum as number) >= (s.maximum as number)) return ['minimum', 'must be below maximum'];
  if (s.type === 'numeric' && s.values.length > 0) return ['values', 'a numeric scale has no letter values'];
  if (s.type === 'letter' && s.values.length === 0)
    return ['values', 'a letter scale lists its values, best first'];
  if (s.type === 'letter' && (s.minimum !== null || s.maximum !== null))
    return ['minimum', 'a letter scale has no numeric range'];
  return undefined;
}

/**
 * A line item is scored on a scale or out of a maximum (from a minimum, 0 when left out), and is due no
 * earlier than it is assigned.
 */
export const lineItemInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      class_id: id(),
      title: requiredText(200),
      description: optionalText(LIMITS.text),
      category_id: id(),
      score_scale_id: z._default(z.nullable(id()), null),
      result_value_min: z._default(z.nullable(finite()), null),
      result_value_max: z._default(z.nullable(finite()), null),
      grading_period_id: z._default(z.nullable(id()), null),
      assign_date: date(),
      due_date: date(),
      released: z._default(z.boolean(), false),
    })
    .check(
      z.refine((l) => ordered(l.assign_date, l.due_date), {
        message: 'must not be after due_date',
        path: ['assign_date'],
      }),
      z.refine((l) => l.score_scale_id !== null || l.result_value_max !== null, {
        message: 'a line item is scored on a score scale or out of a maximum',
        path: ['result_value_max'],
      }),
      z.refine(
        (l) =>
          l.result_value_min === null ||
          l.result_value_max === null ||
          l.result_value_min < l.result_value_max,
        {
          message: 'must be below result_value_max',
          path: ['result_value_min'],
        },
      ),
    ),
);

/**
 * A student's result for a line item of the class named, where it stands and what it scores: a number,
 * a letter value in `text_score`, or both (a letter and the number it stands for).
 */
const gradeFields = () => ({
  status: z.enum(resultStatuses, `must be one of ${resultStatuses.join(', ')}`),
  score: z._default(z.nullable(finite()), null),
  text_score: z._default(z.nullable(requiredText(20)), null),
  score_date: date(),
  comment: optionalText(LIMITS.text),
});

export const resultInsertRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    class_id: id(),
    line_item_id: id(),
    student_id: id(),
    ...gradeFields(),
  }),
);

/**
 * An assessment, of the class named or of none, perhaps part of another (`parent_id`): scored on a scale,
 * out of a range (from a minimum, 0 when left out), or neither.
 */
export const assessmentLineItemInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      class_id: z._default(z.nullable(id()), null),
      parent_id: z._default(z.nullable(id()), null),
      title: requiredText(200),
      description: optionalText(LIMITS.text),
      score_scale_id: z._default(z.nullable(id()), null),
      result_value_min: z._default(z.nullable(finite()), null),
      result_value_max: z._default(z.nullable(finite()), null),
    })
    .check(
      z.refine(
        (l) =>
          l.result_value_min === null ||
          l.result_value_max === null ||
          l.result_value_min < l.result_value_max,
        { message: 'must be below result_value_max', path: ['result_value_min'] },
      ),
    ),
);

/**
 * A student's result in an assessment: its class must be the assessment's (none for an assessment of no
 * class), and its percentile, where given, from 0 to 100.
 */
export const assessmentResultInsertRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    class_id: z._default(z.nullable(id()), null),
    assessment_line_item_id: id(),
    student_id: id(),
    ...gradeFields(),
    score_percentile: z._default(
      z.nullable(finite().check(z.minimum(0, 'must be at least 0'), z.maximum(100, 'must be at most 100'))),
      null,
    ),
  }),
);

/** Records about several students entered together: 1 to `LIMITS.bulkEntries`, each student once. */
const forStudents = <T extends z.ZodMiniType<{ student_id: string }>>(entry: T) =>
  z.array(entry).check(
    z.minLength(1, 'must name at least one student'),
    z.maxLength(LIMITS.bulkEntries, atMost(LIMITS.bulkEntries, 'students')),
    z.refine((entries) => new Set(entries.map((e) => e.student_id)).size === entries.length, {
      message: 'must name each student once',
    }),
  );

/**
 * The results of a line item's students, graded together: each student's result, every student at most
 * once. The line item (and so the class) is the path's.
 */
export const lineItemResultsRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({ results: forStudents(z.strictObject({ student_id: id(), ...gradeFields() })) }),
);
export type LineItemResultsRequest = z.output<ReturnType<typeof lineItemResultsRequest>>;

/** The longest a student can be late and still be marked tardy: a whole day, in minutes. */
const MAX_MINUTES_LATE = 24 * 60;

/** A student's attendance mark: its status, the minutes late of a tardy one, and a note. */
const markFields = () => ({
  status: z.enum(attendanceStatuses, `must be one of ${attendanceStatuses.join(', ')}`),
  minutes_late: z._default(
    z.nullable(
      z
        .int('must be a whole number of minutes')
        .check(
          z.minimum(1, 'must be at least 1'),
          z.maximum(MAX_MINUTES_LATE, `must be at most ${MAX_MINUTES_LATE}`),
        ),
    ),
    null,
  ),
  note: optionalText(500),
});

/** Only a tardy mark says how late. */
const lateOnlyWhenTardy = () =>
  z.refine<{ status: string; minutes_late: number | null }>(
    (a) => a.minutes_late === null || a.status === 'tardy',
    {
      message: 'only a tardy mark says how late',
      path: ['minutes_late'],
    },
  );

/**
 * A student's attendance in the class named on a date, or with no class for the whole school day: a mark,
 * the minutes late of a tardy one, and a note.
 */
export const attendanceInsertRequest = /* @__PURE__ */ lazily(() =>
  z
    .strictObject({
      class_id: z._default(z.nullable(id()), null),
      student_id: id(),
      date: date(),
      ...markFields(),
    })
    .check(lateOnlyWhenTardy()),
);

/**
 * A class's register for a date: each student's mark, every student at most once. The class and date
 * are the path's.
 */
export const registerRequest = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    marks: forStudents(z.strictObject({ student_id: id(), ...markFields() }).check(lateOnlyWhenTardy())),
  }),
);
export type RegisterRequest = z.output<ReturnType<typeof registerRequest>>;

/**
 * Each group's insert request, built when first read: for the API description and the import. A write
 * handler takes its own group's (`studentInsertRequest`, ...), so its bundle holds no other group's.
 */
export const insertRequests = {
  get entities() {
    return entityInsertRequest();
  },
  get students() {
    return studentInsertRequest();
  },
  get teachers() {
    return teacherInsertRequest();
  },
  get tutors() {
    return tutorInsertRequest();
  },
  get staffs() {
    return staffInsertRequest();
  },
  get academic_sessions() {
    return academicSessionInsertRequest();
  },
  get courses() {
    return courseInsertRequest();
  },
  get classes() {
    return classInsertRequest();
  },
  get enrollments() {
    return enrollmentInsertRequest();
  },
  get categories() {
    return categoryInsertRequest();
  },
  get score_scales() {
    return scoreScaleInsertRequest();
  },
  get line_items() {
    return lineItemInsertRequest();
  },
  get results() {
    return resultInsertRequest();
  },
  get attendance() {
    return attendanceInsertRequest();
  },
  get assessment_line_items() {
    return assessmentLineItemInsertRequest();
  },
  get assessment_results() {
    return assessmentResultInsertRequest();
  },
};

export type InsertRequest<G extends keyof typeof insertRequests> = z.output<(typeof insertRequests)[G]>;
/** A group's insert request schema. */
export type InsertSchema<G extends keyof typeof insertRequests> = (typeof insertRequests)[G];
export type IdentificationDocumentInsertRequest = z.output<ReturnType<typeof documentInsertRequest>>;
