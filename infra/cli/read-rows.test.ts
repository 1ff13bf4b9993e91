import { describe, expect, it } from 'vitest';
import { formatOf, unflatten } from './read-rows';

describe('import rows (issue: writing records, deliverable 6)', () => {
  it('nests dotted CSV columns into lists and objects, leaving out empty cells', () => {
    expect(
      unflatten({
        processnumber: 'A1',
        ative: 'true',
        deceased: 'false',
        'addresses.0.address': 'Rua A, 1',
        'addresses.0.city': 'Porto',
        'addresses.1.address': '',
        'student_ids.0': 'x',
        'student_ids.1': 'y',
        gender: '',
      }),
    ).toEqual({
      processnumber: 'A1',
      ative: true,
      deceased: false,
      addresses: [{ address: 'Rua A, 1', city: 'Porto' }],
      student_ids: ['x', 'y'],
    });
  });

  it('keeps a boolean column that is not true or false as text, for validation to refuse', () => {
    expect(unflatten({ ative: 'yes' })).toEqual({ ative: 'yes' });
  });

  it('makes a __proto__ or constructor column a field of the row, never a change to Object.prototype', () => {
    const row = unflatten({ processnumber: 'P1', '__proto__.x': '1', 'constructor.prototype.y': '2' });
    expect(Object.keys(row)).toEqual(['processnumber', '__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });

  it('takes an index of more than three digits as a key, for validation to refuse, not as a list that long', () => {
    const row = unflatten({ 'addresses.999999999.city': 'Porto', 'contacts.4294967295.contact': 'x' });
    expect(Array.isArray(row.addresses)).toBe(false);
    expect(Object.keys(row.addresses as object)).toEqual(['999999999']);
    expect(Object.keys(row.contacts as object)).toEqual(['4294967295']);
  });

  it('tells the format from the file name', () => {
    expect(formatOf('students.CSV')).toBe('csv');
    expect(formatOf('a.json')).toBe('json');
    expect(formatOf('a.ndjson')).toBe('ndjson');
    expect(formatOf('a.jsonl')).toBe('ndjson');
    expect(formatOf('a.xlsx')).toBeUndefined();
  });
});
