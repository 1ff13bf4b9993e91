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

  it('tells the format from the file name', () => {
    expect(formatOf('students.CSV')).toBe('csv');
    expect(formatOf('a.json')).toBe('json');
    expect(formatOf('a.ndjson')).toBe('ndjson');
    expect(formatOf('a.jsonl')).toBe('ndjson');
    expect(formatOf('a.xlsx')).toBeUndefined();
  });
});
