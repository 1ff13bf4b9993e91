// What clients send to create or replace records (the specification's insert requests): one schema
// per request, used to validate bodies here and by the bulk import, within the limits of domain/limits.ts.
import * as z from 'zod';
import { isValidIban } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';

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

/** An identification document to add; each group's API component is its own instance of this schema. */
export const identificationDocumentInsertRequest = () =>
  z
    .strictObject({
      init_date: date,
      end_date: date,
      identification_document_value: text(100).min(1, 'must not be empty'),
      identification_document_type_name: text(50).min(1, 'must not be empty'),
    })
    .refine((d) => d.init_date <= d.end_date, { message: 'must not be after end_date', path: ['init_date'] });

export const IdentificationDocumentInsertRequest = identificationDocumentInsertRequest();

export const BankAccountInput = z.strictObject({
  back_account_number: z
    .string()
    .max(34)
    .refine(isValidIban, 'must be an IBAN with valid check digits')
    .transform((iban) => iban.replace(/\s+/g, '').toUpperCase()),
  country_name: optionalText(100),
  entity_bank_account_type: text(20).default('IBAN'),
});

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

const bankAccountsAlias = { bank_accounts: list(BankAccountInput).optional() };

/** The specification uses two keys for the bank-account array: a body may use either, not both. */
function oneBankAccountKey(
  body: { bank_accounts?: unknown[] | undefined; bankAccounts: unknown[] },
  context: z.RefinementCtx,
) {
  if (body.bank_accounts !== undefined && body.bankAccounts.length > 0) {
    context.addIssue({
      code: 'custom',
      path: ['bank_accounts'],
      message: 'send bankAccounts or bank_accounts, not both',
    });
  }
}

/** Keeps the bank-account array as bankAccounts. A trailing transform, not a preprocess, so the body stays describable as JSON Schema. */
function keepBankAccounts<
  B extends { bank_accounts?: BankAccountInput[] | undefined; bankAccounts: BankAccountInput[] },
>({ bank_accounts, ...body }: B) {
  return { ...body, bankAccounts: bank_accounts ?? body.bankAccounts };
}

type BankAccountInput = z.output<typeof BankAccountInput>;

const personObject = z.strictObject({ ...personFields, ...bankAccountsAlias });

export const StudentInsertRequest = personObject.superRefine(oneBankAccountKey).transform(keepBankAccounts);
export const TeacherInsertRequest = personObject.superRefine(oneBankAccountKey).transform(keepBankAccounts);
export const StaffInsertRequest = personObject.superRefine(oneBankAccountKey).transform(keepBankAccounts);
export const TutorInsertRequest = personObject
  .extend({
    student_ids: z
      .array(id())
      .min(1, 'a tutor is in charge of at least one student')
      .max(LIMITS.tutorStudents, `at most ${LIMITS.tutorStudents} students`)
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a student'),
  })
  .superRefine(oneBankAccountKey)
  .transform(keepBankAccounts);
export const EntityInsertRequest = z
  .strictObject({
    entity_type: z.enum(['person', 'organisation'], 'must be person or organisation'),
    name: text(200).min(1, 'must not be empty'),
    ...contactFields,
    ...bankAccountsAlias,
  })
  .superRefine(oneBankAccountKey)
  .transform(keepBankAccounts);

export const insertRequests = {
  entities: EntityInsertRequest,
  students: StudentInsertRequest,
  teachers: TeacherInsertRequest,
  tutors: TutorInsertRequest,
  staffs: StaffInsertRequest,
} as const;

export type InsertRequest<G extends keyof typeof insertRequests> = z.output<(typeof insertRequests)[G]>;
export type IdentificationDocumentInsertRequest = z.output<typeof IdentificationDocumentInsertRequest>;
