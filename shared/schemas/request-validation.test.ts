import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { recordGroups } from '../domain/groups';
import { BadRequestError } from '../http/errors';
import { QUOTE_LENGTH } from '../http/quote';
import { boundedDistance, closest, validateBody } from '../http/validate';
import { insertRequests } from './requests';

const known = ['ative', 'bankAccounts', 'processnumber', 'birth_date', 'name', 'email'];

const student = {
  processnumber: 'A1',
  ative: true,
  name: 'Ana Silva',
  email: 'ana@example.com',
  birth_date: '2012-02-29',
};

function problems(body: unknown, schema: z.ZodMiniType = insertRequests.students) {
  try {
    validateBody(schema, body, known);
  } catch (error) {
    if (error instanceof BadRequestError) return error.invalidParams ?? [];
    throw error;
  }
  return [];
}

describe('body validation (issue: writing records, deliverable 2)', () => {
  it('accepts a minimal student and fills the optional fields', () => {
    const parsed = validateBody(insertRequests.students, student, known);
    expect(parsed).toMatchObject({
      ...student,
      photobase64: '',
      deceased: false,
      addresses: [],
      bankAccounts: [],
    });
  });

  it('hints at the close field for an unknown one', () => {
    expect(closest('active', known)).toBe('ative');
    expect(closest('bank_accounts_list', known)).toBeUndefined();
    expect(closest('BirthDate', known)).toBe('birth_date');
    expect(problems({ ...student, active: true })).toEqual([
      { name: 'active', in: 'body', reason: 'unknown field; did you mean ative?' },
    ]);
  });

  it('never hints at the field it refuses (issue 14: "student_id: did you mean student_id?")', () => {
    expect(closest('student_id', ['student_id', 'student_ids'])).toBe('student_ids');
    expect(closest('created_at', ['created_at'])).toBeUndefined();
    const refused = problems({ ...student, student_id: '0b7c5a52-1d7e-4a55-9a53-3f1f0f3c4b7e' });
    expect(refused).toHaveLength(1);
    expect(refused[0]?.name).toBe('student_id');
    expect(refused[0]?.reason).not.toContain('did you mean');
  });

  it('takes bank_accounts as bankAccounts, but not both', () => {
    const account = { back_account_number: 'PT50 0002 0123 1234 5678 9015 4', country_name: 'Portugal' };
    const parsed = validateBody(insertRequests.students, { ...student, bank_accounts: [account] }, known);
    expect(parsed.bankAccounts).toEqual([
      {
        back_account_number: 'PT50000201231234567890154',
        country_name: 'Portugal',
        entity_bank_account_type: 'IBAN',
      },
    ]);
    expect(problems({ ...student, bank_accounts: [account], bankAccounts: [account] })[0]?.name).toBe(
      'bank_accounts',
    );
  });

  it('lists every bad field with its path and why', () => {
    const bad = problems({
      ...student,
      email: 'not-an-email',
      birth_date: '2023-02-29',
      ative: 'yes',
      name: undefined,
      documents: [
        {
          init_date: '2030-01-01',
          end_date: '2020-01-01',
          identification_document_value: 'X',
          identification_document_type_name: 'Passport',
        },
      ],
      bankAccounts: [{ back_account_number: 'PT50000201231234567890155' }],
      photobase64: 'not base64!',
    });
    const byName = Object.fromEntries(bad.map((p) => [p.name, p.reason]));
    expect(byName).toEqual({
      email: 'must be an e-mail address',
      birth_date: 'must be a date that exists, written YYYY-MM-DD',
      ative: 'must be a boolean',
      name: 'is required',
      'documents[0].init_date': 'must not be after end_date',
      'bankAccounts[0].back_account_number': 'must be an IBAN with valid check digits',
      photobase64: 'must be Base64 or empty',
    });
  });

  it('refuses bodies that are not objects, and oversized fields', () => {
    for (const body of [null, [], 'text', 42]) expect(problems(body)[0]?.name).toBe('body');
    expect(problems({ ...student, photobase64: 'A'.repeat(300 * 1024) })[0]?.reason).toContain('at most');
    expect(problems({ ...student, student_ids: [] }, insertRequests.tutors)[0]?.name).toBe('student_ids');
  });

  it('has one schema per group', () => {
    expect(Object.keys(insertRequests).sort()).toEqual([...recordGroups].sort());
  });

  it('takes a line item scored on a scale or out of a maximum, due no earlier than it is assigned', () => {
    const lineItem = {
      class_id: '0b3f0c52-37c4-4d6e-9d07-3d1b1a6c8f10',
      title: 'Test 1',
      category_id: '6e0e5d0c-1f38-4a4b-8a55-2f1c7b1a9e21',
      result_value_max: 100,
      assign_date: '2026-10-05',
      due_date: '2026-10-05',
    };
    const schema = insertRequests.line_items;
    expect(problems(lineItem, schema)).toEqual([]);
    expect(
      problems({ ...lineItem, result_value_max: undefined, score_scale_id: lineItem.category_id }, schema),
    ).toEqual([]);
    expect(problems({ ...lineItem, result_value_max: undefined }, schema)[0]).toMatchObject({
      name: 'result_value_max',
      reason: 'a line item is scored on a score scale or out of a maximum',
    });
    expect(problems({ ...lineItem, result_value_min: 100 }, schema)[0]).toMatchObject({
      name: 'result_value_min',
      reason: 'must be below result_value_max',
    });
    expect(problems({ ...lineItem, assign_date: '2026-10-06' }, schema)[0]).toMatchObject({
      name: 'assign_date',
      reason: 'must not be after due_date',
    });
    expect(problems({ ...lineItem, released: 'yes' }, schema)[0]).toMatchObject({
      name: 'released',
      reason: 'must be a boolean',
    });
  });
});

describe('an unknown field of any length (issue 21, finding 4)', () => {
  it('is measured only up to the hint distance', () => {
    expect(boundedDistance('active', 'ative', 2)).toBe(1);
    expect(boundedDistance('bankaccounts', 'bankAccounts', 2)).toBe(1);
    expect(boundedDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(boundedDistance('x'.repeat(380_000), 'name', 2)).toBe(3);
    expect(boundedDistance('', 'ab', 2)).toBe(2);
  });

  it('gets no hint when it is far longer than every known field, and is quoted by a prefix', () => {
    const huge = `active${'x'.repeat(380_000)}`;
    expect(closest(huge, known)).toBeUndefined();
    expect(closest(`a${'-'.repeat(380_000)}tive`, known)).toBe('ative');
    const [refused] = problems({ ...student, [huge]: 1 });
    expect(refused?.name).toBe(`${huge.slice(0, QUOTE_LENGTH)}…`);
    expect(refused?.reason).toBe('unknown field');
  });

  it('is quoted by a prefix where it is nested too', () => {
    const huge = 'y'.repeat(10_000);
    const names = problems({ ...student, addresses: [{ [huge]: 1 }] }).map((p) => p.name);
    expect(names).toContain(`addresses[0].${'y'.repeat(QUOTE_LENGTH)}…`);
  });
});

describe('ids in bodies', () => {
  it('are stored in lower case, as the service writes them', () => {
    const tutor = validateBody(
      insertRequests.tutors,
      {
        ...student,
        entity_id: 'ABCDEF01-2345-4678-9ABC-DEF012345678',
        student_ids: ['ABCDEF01-2345-4678-9ABC-DEF012345679'],
      },
      known,
    );
    expect(tutor.entity_id).toBe('abcdef01-2345-4678-9abc-def012345678');
    expect(tutor.student_ids).toEqual(['abcdef01-2345-4678-9abc-def012345679']);
  });
});
