// What clients send to create or replace records (the specification's insert requests): one schema
// per request, used to validate bodies here and by the bulk import, within the limits of domain/limits.ts.
import * as z from 'zod/mini';
import { isValidIban } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';

const atMost = (max: number, unit = 'characters') => `at most ${max} ${unit}`;
const text = (max: number = LIMITS.text) => z.string().check(z.maxLength(max, atMost(max)));
const requiredText = (max: number) => text(max).check(z.minLength(1, 'must not be empty'));
const optionalText = (max?: number) => z._default(text(max), '');
const list = <T extends z.ZodMiniType>(item: T) =>
  z.array(item).check(z.maxLength(LIMITS.listItems, atMost(LIMITS.listItems, 'entries')));

const date = z.iso.date('must be a date that exists, written YYYY-MM-DD');
/** Ids are stored in lower case, as the service writes them; a client may send either. */
const id = () =>
  z.pipe(
    z.uuid('must be a UUID'),
    z.transform((value: string) => value.toLowerCase()),
  );

export const AddressInput = z.strictObject({
  address: text(),
  address2: optionalText(),
  zone_code: optionalText(20),
  postal_code: optionalText(20),
  city: optionalText(100),
  country: optionalText(100),
});

export const ContactInput = z.strictObject({
  contact: requiredText(200),
  contact_type_name: requiredText(50),
});

/** An identification document to add; each group's API component is its own instance of this schema. */
export const identificationDocumentInsertRequest = () =>
  z
    .strictObject({
      init_date: date,
      end_date: date,
      identification_document_value: requiredText(100),
      identification_document_type_name: requiredText(50),
    })
    .check(
      z.refine((d) => d.init_date <= d.end_date, {
        message: 'must not be after end_date',
        path: ['init_date'],
      }),
    );

export const IdentificationDocumentInsertRequest = identificationDocumentInsertRequest();

export const BankAccountInput = z.strictObject({
  back_account_number: z.pipe(
    z
      .string()
      .check(z.maxLength(34, atMost(34)), z.refine(isValidIban, 'must be an IBAN with valid check digits')),
    z.transform((iban: string) => iban.replace(/\s+/g, '').toUpperCase()),
  ),
  country_name: optionalText(100),
  entity_bank_account_type: z._default(text(20), 'IBAN'),
});

const contactFields = {
  email: z.email('must be an e-mail address').check(z.maxLength(254, atMost(254))),
  addresses: z._default(list(AddressInput), []),
  contacts: z._default(list(ContactInput), []),
  documents: z._default(list(IdentificationDocumentInsertRequest), []),
  bankAccounts: z._default(list(BankAccountInput), []),
};

const personFields = {
  processnumber: requiredText(50),
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
  birth_date: date,
  naturality: optionalText(100),
  nationality: optionalText(100),
  marital_status: optionalText(50),
  deceased: z._default(z.boolean(), false),
  ...contactFields,
  /** The person entity this record belongs to; without it, a new entity is created. */
  entity_id: z.optional(id()),
};

const bankAccountsAlias = { bank_accounts: z.optional(list(BankAccountInput)) };

type BankAccountInput = z.output<typeof BankAccountInput>;
type WithBankAccounts = { bank_accounts?: BankAccountInput[] | undefined; bankAccounts: BankAccountInput[] };

/** The specification uses two keys for the bank-account array: a body may use either, not both. */
const oneBankAccountKey = z.superRefine((body: WithBankAccounts, context) => {
  if (body.bank_accounts !== undefined && body.bankAccounts.length > 0) {
    context.addIssue({
      code: 'custom',
      path: ['bank_accounts'],
      message: 'send bankAccounts or bank_accounts, not both',
    });
  }
});

/** Keeps the bank-account array as bankAccounts. A trailing transform, not a preprocess, so the body stays describable as JSON Schema. */
function keepBankAccounts<B extends WithBankAccounts>({ bank_accounts, ...body }: B) {
  return { ...body, bankAccounts: bank_accounts ?? body.bankAccounts };
}

/** A body with both bank-account keys checked, read as one bankAccounts array. */
const insertRequest = <S extends z.ZodMiniObject>(object: S) =>
  z.pipe(
    object.check(oneBankAccountKey as z.core.$ZodCheck<z.output<S>>),
    z.transform((body: z.output<S>) => keepBankAccounts(body as z.output<S> & WithBankAccounts)),
  );

const personObject = z.strictObject({ ...personFields, ...bankAccountsAlias });

export const StudentInsertRequest = insertRequest(personObject);
export const TeacherInsertRequest = insertRequest(personObject);
export const StaffInsertRequest = insertRequest(personObject);
export const TutorInsertRequest = insertRequest(
  z.extend(personObject, {
    student_ids: z.array(id()).check(
      z.minLength(1, 'a tutor is in charge of at least one student'),
      z.maxLength(LIMITS.tutorStudents, atMost(LIMITS.tutorStudents, 'students')),
      z.refine((ids) => new Set(ids).size === ids.length, 'must not repeat a student'),
    ),
  }),
);
export const EntityInsertRequest = insertRequest(
  z.strictObject({
    entity_type: z.enum(['person', 'organisation'], 'must be person or organisation'),
    name: requiredText(200),
    ...contactFields,
    ...bankAccountsAlias,
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
