// The CSV layout: list columns as wide as the longest list, the specification's field order, and
// RFC 4180 quoting that a standard parser reads back to the same cells.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvLayout, csvLine, neutralised, restored, restoredCells } from './csv';

describe('export CSV', () => {
  it('quotes only cells that need it and ends lines with CRLF', () => {
    const cells = ['plain', 'Rua do Almada, 12', 'say "olá"', 'two\nlines', ''];
    const line = csvLine(cells);
    expect(line).toBe('plain,"Rua do Almada, 12","say ""olá""","two\nlines",\r\n');
    expect(parse(line)).toEqual([cells]);
  });

  it('spreads lists over numbered columns as wide as the longest one, in field order', () => {
    const layout = new CsvLayout('tutors');
    const tutors = [
      { tutor_id: 't1', student_ids: ['s1', 's2'], name: 'Ana', ative: true, addresses: [] },
      {
        tutor_id: 't2',
        student_ids: [],
        name: 'Rui',
        ative: false,
        addresses: [{ address: 'Rua A', city: 'Porto' }],
      },
    ];
    for (const tutor of tutors) layout.observe(tutor);
    const header = layout.header().trim().split(',');
    expect(header.slice(0, 3)).toEqual(['tutor_id', 'student_ids.0', 'student_ids.1']);
    expect(header).toContain('addresses.0.city');
    expect(header).not.toContain('addresses.1.city');
    const [first, second] = parse(layout.header() + tutors.map((t) => layout.row(t)).join(''), {
      columns: true,
    }) as Record<string, string>[];
    expect(first).toMatchObject({ 'student_ids.1': 's2', ative: 'true', 'addresses.0.city': '' });
    expect(second).toMatchObject({ 'student_ids.0': '', ative: 'false', 'addresses.0.city': 'Porto' });
  });

  it('neutralises every cell a spreadsheet would run as a formula, and quotes it (OWASP)', () => {
    const cells = [
      '=HYPERLINK("https://x.example","y")',
      '+351 912 345 678',
      '-1+A1',
      '@SUM(A1)',
      '\tx',
      '\ry',
      'a=b',
    ];
    const line = csvLine(cells);
    expect(line).toBe(
      `"'=HYPERLINK(""https://x.example"",""y"")","'+351 912 345 678","'-1+A1","'@SUM(A1)","'\tx","'\ry",a=b\r\n`,
    );
    const [parsed] = parse(line) as string[][];
    expect(parsed).toEqual(cells.map(neutralised));
    expect(parsed?.map(restored)).toEqual(cells);
  });

  it('leaves a plain number as it is: a spreadsheet reads -5 as minus five, and runs nothing', () => {
    expect(csvLine(['-5', '+0.5', '-1e3', '-.25'])).toBe('-5,+0.5,-1e3,-.25\r\n');
    for (const cell of ['-5', "'-5", "''-5", '-5 ', '- 5'])
      expect((parse(csvLine([cell])) as string[][])[0]?.map(restored)).toEqual([cell]);
  });

  it("restores only the service's own neutralising quote", () => {
    expect(restored("'=1+1")).toBe('=1+1');
    expect(restored("'quoted'")).toBe("'quoted'");
    expect(restored("''=x")).toBe("'=x");
    for (const cell of ["'=x", "''+1", "'", "'a", '=x'])
      expect((parse(csvLine([cell])) as string[][])[0]?.map(restored)).toEqual([cell]);
    expect(restoredCells({ name: "'-", email: 'a@b' })).toEqual({ name: '-', email: 'a@b' });
  });
});
