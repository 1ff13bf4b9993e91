// The OneRoster 1.2 filter grammar (Rostering REST binding, section 3.4.4).
import { describe, expect, it } from 'vitest';
import { matches, parseFilter } from './filter';
import { OneRosterError } from './status-info';

const user = {
  sourcedId: 'a1',
  familyName: "O'Neill",
  givenName: 'Ana',
  dateLastModified: '2026-09-01T10:00:00.000Z',
  roles: [
    { role: 'student', org: { sourcedId: 'org-1' } },
    { role: 'guardian', org: { sourcedId: 'org-2' } },
  ],
};

describe('parseFilter', () => {
  it('reads one predicate of each operator', () => {
    for (const op of ['=', '!=', '>', '>=', '<', '<=', '~']) {
      expect(parseFilter(`givenName${op}'Ana'`)).toEqual({
        predicates: [{ field: 'givenName', operator: op, value: 'Ana' }],
        logic: 'AND',
      });
    }
  });

  it('reads two predicates joined by AND or OR, dotted paths, and doubled quotes', () => {
    expect(parseFilter("roles.role='student' OR familyName='O''Neill'")).toEqual({
      predicates: [
        { field: 'roles.role', operator: '=', value: 'student' },
        { field: 'familyName', operator: '=', value: "O'Neill" },
      ],
      logic: 'OR',
    });
  });

  it.each([
    ['', 'no field'],
    ["givenName'Ana'", 'no operator'],
    ['givenName=Ana', 'unquoted value'],
    ["givenName='Ana", 'unclosed quote'],
    ["givenName='Ana' AND", 'dangling AND'],
    ["a='1' AND b='2' AND c='3'", 'three predicates'],
    ["a='1' XOR b='2'", 'unknown logic'],
    ["a='1' and b='2'", 'lower-case logic'],
    ["dateLastModified>'yesterday'", 'a date-time field with no date-time'],
    ["dateLastModified>'2026-09-01'", 'a date-time field with a date alone'],
    ["dateLastModified>'2026-09-01T10:00:00'", 'a date-time without a time zone'],
    ["dateLastModified>'9999-12-31T23:59:59-23:59'", 'an instant in the year 10000 (UTC)'],
    ["roles.beginDate<'2026-02-30'", 'a date that does not exist'],
    ["roles.endDate<'2026-13-01'", 'a month that does not exist'],
    ["birthDate='01/02/2010'", 'a date field with no ISO date'],
  ])('refuses %j (%s) as invalid_filter_field', (text) => {
    try {
      parseFilter(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(OneRosterError);
      expect((error as OneRosterError).codeMinor).toBe('invalid_filter_field');
      expect((error as OneRosterError).status).toBe(400);
    }
  });
});

describe('matches', () => {
  const check = (text: string) => matches(user, parseFilter(text));

  it('compares strings as text, date-times as instants and dates as dates', () => {
    expect(check("givenName='Ana'")).toBe(true);
    expect(check("givenName!='Ana'")).toBe(false);
    expect(check("dateLastModified>'2026-08-31T00:00:00Z'")).toBe(true);
    expect(check("dateLastModified<='2026-08-31T23:59:59Z'")).toBe(false);
    expect(check("familyName~'neil'")).toBe(true);
    const at = (dateLastModified: string, text: string) =>
      matches({ ...user, dateLastModified }, parseFilter(text));
    // Text order puts '.' before 'Z'; as instants half a second later is later.
    expect(at('2026-01-01T10:00:00.500Z', "dateLastModified>'2026-01-01T10:00:00Z'")).toBe(true);
    expect(at('2026-01-01T10:00:00.000Z', "dateLastModified='2026-01-01T10:00:00Z'")).toBe(true);
    expect(at('2026-01-01T10:00:00.000Z', "dateLastModified>='2026-01-01T11:00:00+01:00'")).toBe(true);
    expect(at('2026-01-01T10:00:00.000Z', "dateLastModified>'2026-01-01T11:00:00+01:00'")).toBe(false);
    const born = (birthDate: string, text: string) => matches({ birthDate }, parseFilter(text));
    expect(born('2010-05-04', "birthDate<'2010-12-01'")).toBe(true);
    expect(born('2010-05-04', "birthDate>='2010-05-04'")).toBe(true);
    expect(born('not a date', "birthDate<'2010-12-01'")).toBe(false);
  });

  it('compares a number as a number where the value is one (a score, a weight), as text otherwise', () => {
    const scored = (score: number, text: string) => matches({ score }, parseFilter(text));
    expect(scored(100, "score>='90'")).toBe(true);
    expect(scored(9.5, "score<'10'")).toBe(true);
    expect(scored(12, "score='12.0'")).toBe(true);
    expect(scored(12, "score>'x'")).toBe(false);
    expect(scored(12, "score~'2'")).toBe(true);
    // Only decimal is a number: nothing reaches 1e400, and 0x10 is no 16.
    expect(scored(53, "score>='1e400'")).toBe(false);
    expect(scored(53, "score<'1e400'")).toBe(true);
    expect(scored(16, "score='0x10'")).toBe(false);
    expect(scored(16, "score=' 16 '")).toBe(true);
  });

  it('matches an array path when any element does, and != only when none does', () => {
    expect(check("roles.role='guardian'")).toBe(true);
    expect(check("roles.org.sourcedId='org-3'")).toBe(false);
    expect(check("roles.role!='teacher'")).toBe(true);
    expect(check("roles.role!='student'")).toBe(false);
  });

  it('applies AND and OR', () => {
    expect(check("givenName='Ana' AND roles.role='teacher'")).toBe(false);
    expect(check("givenName='Ana' OR roles.role='teacher'")).toBe(true);
  });

  it('never matches a missing field, except with !=', () => {
    expect(check("email='x'")).toBe(false);
    expect(check("email!='x'")).toBe(true);
  });
});
