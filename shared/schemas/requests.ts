// What clients send to create or replace records (the specification's insert requests): one schema
// per request, used to validate bodies here and by the bulk import. Limits keep every record well
// inside DynamoDB's 400 KB item and every page of a list inside Lambda's response limit.
import { z } from 'zod';
import { isValidIban } from '../domain/identifiers';

export const LIMITS = {
  /** A request body; larger ones get 413. */
  bodyBytes: 384 * 1024,
  /** A photo's Base64 text (about 190 KB of image). */
  photoBase64Chars: 256 * 1024,
  text: 500,
  listItems: 20,
  tutorStudents: 20,
} as const;

const text = (max: number = LIMITS.text) => z.string().max(max, `at most ${max} characters`);
const optionalText = (max?: number) => text(max).default('');
const list = <T extends z.ZodType>(item: T) =>
  z.array(item).max(LIMITS.listItems, `at most ${LIMITS.listItems} entries`);

const date = z.iso.date('must be a date that exists, written YYYY-MM-DD');
/** Ids are stored in lower case, as the service writes them; a client may send either. */
const id = () => z.uuid('must be a UUID').transform((value) => value.toLowerCase());

export const AddressInput = z.strictObject({
  address: text(),
  address2: optionalText(),
  zone_code: optionalText(20),
  postal_code: optionalText(20),
  city: optionalText(100),
  country: optionalText(100),
});

export const ContactInput = z.strictObject({
  contact: text(200).min(1, 'must not be empty'),
  contact_type_name: text(50).min(1, 'must not be empty'),
});

export const IdentificationDocumentInsertRequest = z
  .strictObject({
    init_date: date,
    end_date: date,
    identification_document_value: text(100).min(1, 'must not be empty'),
    identification_document_type_name: text(50).min(1, 'must not be empty'),
  })
  .refine((d) => d.init_date <= d.end_date, { message: 'must not be after end_date', path: ['init_date'] });

export const BankAccountInput = z.strictObject({
  back_account_number: z
    .string()
    .max(34)
    .refine(isValidIban, 'must be an IBAN with valid check digits')
    .transform((iban) => iban.replace(/\s+/g, '').toUpperCase()),
  country_name: optionalText(100),
  entity_bank_account_type: text(20).default('IBAN'),
});

/** Accepts the bank-account array under either key the specification uses; stores it as bankAccounts. */
const acceptBankAccountsAlias = (body: unknown) => {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('bank_accounts' in body))
    return body;
  const { bank_accounts, ...rest } = body as Record<string, unknown>;
  if ('bankAccounts' in rest) return { ...rest, bankAccounts: rest.bankAccounts, bank_accounts };
  return { ...rest, bankAccounts: bank_accounts };
};

const contactFields = {
  email: z.email('must be an e-mail address').max(254),
  addresses: list(AddressInput).default([]),
  contacts: list(ContactInput).default([]),
  documents: list(IdentificationDocumentInsertRequest).default([]),
  bankAccounts: list(BankAccountInput).default([]),
};

const personFields = {
  processnumber: text(50).min(1, 'must not be empty'),
  ative: z.boolean(),
  name: text(200).min(1, 'must not be empty'),
  gender: optionalText(50),
  photobase64: z
    .string()
    .max(LIMITS.photoBase64Chars, `at most ${LIMITS.photoBase64Chars} characters of Base64`)
    .refine((s) => s === '' || /^[A-Za-z0-9+/]+={0,2}$/.test(s), 'must be Base64 or empty')
    .default(''),
  birth_date: date,
  naturality: optionalText(100),
  nationality: optionalText(100),
  marital_status: optionalText(50),
  deceased: z.boolean().default(false),
  ...contactFields,
  /** The person entity this record belongs to; without it, a new entity is created. */
  entity_id: id().optional(),
};

const person = <T extends z.ZodRawShape>(extra: T) =>
  z.preprocess(acceptBankAccountsAlias, z.strictObject({ ...personFields, ...extra }));

export const StudentInsertRequest = person({});
export const TeacherInsertRequest = person({});
export const StaffInsertRequest = person({});
export const TutorInsertRequest = person({
  student_ids: z
    .array(id())
    .min(1, 'a tutor is in charge of at least one student')
    .max(LIMITS.tutorStudents, `at most ${LIMITS.tutorStudents} students`)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a student'),
});
export const EntityInsertRequest = z.preprocess(
  acceptBankAccountsAlias,
  z.strictObject({
    entity_type: z.enum(['person', 'organisation'], 'must be person or organisation'),
    name: text(200).min(1, 'must not be empty'),
    ...contactFields,
  }),
);

export const insertRequests = {
  entities: EntityInsertRequest,
  students: StudentInsertRequest,
  teachers: TeacherInsertRequest,
  tutors: TutorInsertRequest,
  staffs: StaffInsertRequest,
} as const;

export type InsertRequest<G extends keyof typeof insertRequests> = z.output<(typeof insertRequests)[G]>;
export type IdentificationDocumentInsertRequest = z.output<typeof IdentificationDocumentInsertRequest>;
