// `npm run import` (issue "Writing records", deliverable 6): CSV, JSON and NDJSON files with good and
// bad rows, bad rows reported by line, upserts by processnumber, and a re-run that changes nothing.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Student, Tutor } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { demoPeople } from './support/demo-people';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
const people = demoPeople(() => api);
const dir = mkdtempSync(join(tmpdir(), 'school-import-'));
const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

function runImport(...args: string[]) {
  const result = spawnSync(process.execPath, [tsx, 'infra/cli/import.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      TABLE_NAME: api.tableName,
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      AWS_REGION: 'eu-west-1',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function byProcessnumber<T>(group: string, processnumber: string): Promise<T | undefined> {
  const page = await json<Record<string, unknown>>(await api.get(`/api/${group}?items_per_page=500`));
  return (page[group] as (T & { processnumber: string })[]).find((r) => r.processnumber === processnumber);
}

const header =
  'processnumber,ative,name,email,gender,birth_date,nationality,addresses.0.address,addresses.0.postal_code,addresses.0.city,addresses.0.country,contacts.0.contact,contacts.0.contact_type_name,documents.0.init_date,documents.0.end_date,documents.0.identification_document_value,documents.0.identification_document_type_name,bankAccounts.0.back_account_number,bankAccounts.0.country_name';
const row = (pn: string, name: string, email: string, iban: string) =>
  `${pn},true,${name},${email},Female,2013-04-02,Portuguese,"Rua do Almada, 12",4050-031,Porto,Portugal,+351 912 000 111,Phone,2024-02-01,2029-01-31,12345678 9 ZZ1,NationalID,${iban},Portugal`;
const GOOD_IBAN = 'PT50000201231234567890154';

/** A students CSV of these rows under the header, written as `name` in the test's folder: its path. */
function studentsCsv(name: string, ...rows: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, [header, ...rows].join('\n'));
  return file;
}

describe('npm run import', () => {
  it('loads good CSV rows with nested lists, reports bad rows by line, and a re-run changes nothing', async () => {
    const csv = studentsCsv(
      'students.csv',
      row('IMP1', 'Leonor Sá', 'leonor.sa@example.org', GOOD_IBAN),
      row('IMP2', 'Oksana Kovalenko', 'not-an-email', GOOD_IBAN),
      row('IMP3', 'Tomás Reis', 'tomas.reis@example.org', GOOD_IBAN),
      row('IMP4', 'Wang Mei', 'wang.mei@example.org', 'PT50000201231234567890155'),
      row('IMP5', 'Duarte Pinto', 'duarte.pinto@example.org', GOOD_IBAN),
    );
    const before = (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;
    const first = runImport(csv, '--group', 'students');
    expect(first.status, first.stderr).toBe(1);
    expect(first.stdout).toContain('line 3: email: must be an e-mail address');
    expect(first.stdout).toContain(
      'line 5: bankAccounts[0].back_account_number: must be an IBAN with valid check digits',
    );
    expect(first.stdout).toMatch(
      /5 rows in [\d.]+ s \([\d.]+ rows\/s\): 3 created, 0 updated, 0 unchanged, 2 refused/,
    );
    expect(first.stderr).toContain('rows/s');

    const student = await byProcessnumber<Student>('students', 'IMP1');
    expect(student).toMatchObject({
      name: 'Leonor Sá',
      ative: true,
      addresses: [
        {
          address: 'Rua do Almada, 12',
          address2: '',
          postal_code: '4050-031',
          city: 'Porto',
          country: 'Portugal',
        },
      ],
      contacts: [{ contact: '+351 912 000 111', contact_type_name: 'Phone' }],
      bankAccounts: [
        { back_account_number: GOOD_IBAN, country_name: 'Portugal', entity_bank_account_type: 'IBAN' },
      ],
    });
    const after = (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;
    expect(after.students).toBe((before.students ?? 0) + 3);
    expect(after.entities).toBe((before.entities ?? 0) + 3);

    const again = runImport(csv, '--group', 'students');
    expect(again.stdout).toMatch(/0 created, 0 updated, 3 unchanged, 2 refused/);
    expect((await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts).toEqual(
      after,
    );
    expect((await api.get(`/api/students/${student?.student_id}`)).headers.get('etag')).toBe('"1"');
  });

  it('updates changed records from NDJSON, taking bank_accounts for bankAccounts', async () => {
    const ndjson = join(dir, 'students.ndjson');
    const base = {
      ative: true,
      email: 'leonor.sa@example.org',
      birth_date: '2013-04-02',
      bank_accounts: [{ back_account_number: GOOD_IBAN, country_name: 'Portugal' }],
    };
    writeFileSync(
      ndjson,
      [
        JSON.stringify({ ...base, processnumber: 'IMP1', name: 'Leonor Sá Carneiro' }),
        '',
        '{not json',
        JSON.stringify({
          ...base,
          processnumber: 'IMP6',
          name: 'Rafael Nunes',
          email: 'rafael.nunes@example.org',
        }),
      ].join('\n'),
    );
    const result = runImport(ndjson, '--group', 'students');
    expect(result.stdout).toContain('line 3: not valid JSON');
    expect(result.stdout).toMatch(
      /3 rows in [\d.]+ s \([\d.]+ rows\/s\): 1 created, 1 updated, 0 unchanged, 1 refused/,
    );
    const updated = await byProcessnumber<Student>('students', 'IMP1');
    expect(updated?.name).toBe('Leonor Sá Carneiro');
    expect(updated?.addresses).toEqual([]);
  });

  it('loads tutors from a JSON array, linking them to their students', async () => {
    const student = await byProcessnumber<Student>('students', 'IMP3');
    const file = join(dir, 'tutors.json');
    const tutor = {
      processnumber: 'IMPE1',
      ative: true,
      name: 'Helena Reis',
      email: 'helena.reis@example.org',
      birth_date: '1982-11-20',
      student_ids: [student?.student_id],
    };
    writeFileSync(
      file,
      JSON.stringify(
        [tutor, { ...tutor, processnumber: 'IMPE2', student_ids: ['00000000-0000-4000-8000-000000000000'] }],
        null,
        1,
      ),
    );
    const result = runImport(file, '--group', 'tutors');
    expect(result.stdout).toContain(
      'student_ids: no student has student_id 00000000-0000-4000-8000-000000000000',
    );
    expect(result.stdout).toMatch(/1 created, 0 updated, 0 unchanged, 1 refused/);
    expect((await byProcessnumber<Tutor>('tutors', 'IMPE1'))?.student_ids).toEqual([student?.student_id]);
    expect((await api.send('DELETE', `/api/students/${student?.student_id}`)).status).toBe(409);
  });

  it("names a tutor's students by processnumber as well as by id, in CSV, JSON and NDJSON (issue 14)", async () => {
    const one = await byProcessnumber<Student>('students', 'IMP1');
    const three = await byProcessnumber<Student>('students', 'IMP3');
    const tutor = (processnumber: string) => ({
      processnumber,
      ative: true,
      name: 'Inês Sá',
      email: 'ines.sa@example.org',
      birth_date: '1980-03-14',
    });
    const json = join(dir, 'tutors-by-number.json');
    writeFileSync(
      json,
      JSON.stringify([
        { ...tutor('IMPN1'), student_ids: ['IMP1', three?.student_id] },
        { ...tutor('IMPN2'), student_ids: ['NO-SUCH'] },
      ]),
    );
    const fromJson = runImport(json, '--group', 'tutors');
    expect(fromJson.stdout).toContain('student_ids: no student has student_id or processnumber NO-SUCH');
    expect(fromJson.stdout).toMatch(/1 created, 0 updated, 0 unchanged, 1 refused\n$/);
    expect((await byProcessnumber<Tutor>('tutors', 'IMPN1'))?.student_ids).toEqual([
      one?.student_id,
      three?.student_id,
    ]);
    const ndjson = join(dir, 'tutors-by-number.ndjson');
    writeFileSync(ndjson, JSON.stringify({ ...tutor('IMPN3'), student_ids: ['IMP3'] }));
    expect(runImport(ndjson, '--group', 'tutors').stdout).toMatch(
      /1 created, 0 updated, 0 unchanged, 0 refused/,
    );
    expect((await byProcessnumber<Tutor>('tutors', 'IMPN3'))?.student_ids).toEqual([three?.student_id]);
    const csv = join(dir, 'tutors-by-number.csv');
    writeFileSync(
      csv,
      [
        'processnumber,ative,name,email,birth_date,student_ids.0,student_ids.1',
        'IMPN4,true,Rui Sá,rui.sa@example.org,1979-08-30,IMP1,IMP3',
      ].join('\n'),
    );
    const fromCsv = runImport(csv, '--group', 'tutors');
    expect(fromCsv.status).toBe(0);
    expect(fromCsv.stdout).toMatch(/1 rows in [\d.]+ s \([\d.]+ rows\/s\): 1 created/);
    expect((await byProcessnumber<Tutor>('tutors', 'IMPN4'))?.student_ids).toEqual([
      one?.student_id,
      three?.student_id,
    ]);
    // The same file again changes nothing: the numbers resolve to the ids the tutor holds.
    expect(runImport(csv, '--group', 'tutors').stdout).toMatch(
      /0 created, 0 updated, 1 unchanged, 0 refused/,
    );
  });

  it('loads rostering records by their ids from CSV, keeping the ids, and a re-run changes nothing', async () => {
    const ids = async (group: string) =>
      (
        (await json<Record<string, unknown>>(await api.get(`/api/${group}?items_per_page=2`)))[
          group
        ] as Record<string, string>[]
      )[0];
    const course = (await ids('courses')) as Record<string, string>;
    const klass = (await ids('classes')) as Record<string, string>;
    const term = (klass.term_ids as unknown as string[])[0];
    const [one, two, three] = [randomUUID(), randomUUID(), randomUUID()];
    const csv = join(dir, 'classes.csv');
    writeFileSync(
      csv,
      [
        'class_id,title,class_code,class_type,course_id,school_id,term_ids.0,periods.0,periods.1,location',
        `${one},Matemática 7.º B,MAT-07B,scheduled,${course.course_id},${klass.school_id},${term},1,6,Sala 21`,
        `${two},Sem curso,X,scheduled,${randomUUID()},${klass.school_id},${term},,,`,
        `${three},Turma 7.º B,07B,homeroom,${course.course_id},${klass.school_id},${term},,,Sala 22`,
        `not-an-id,Sem id,Y,scheduled,${course.course_id},${klass.school_id},${term},,,`,
      ].join('\n'),
    );
    const first = runImport(csv, '--group', 'classes');
    expect(first.status, first.stderr).toBe(1);
    expect(first.stdout).toContain('line 3: course_id: no course has id');
    expect(first.stdout).toContain('line 5: class_id: must be a UUID');
    expect(first.stdout).toMatch(
      /4 rows in [\d.]+ s \([\d.]+ rows\/s\): 2 created, 0 updated, 0 unchanged, 2 refused/,
    );
    expect(await json(await api.get(`/api/classes/${one}`))).toMatchObject({
      class_id: one,
      title: 'Matemática 7.º B',
      term_ids: [term],
      periods: ['1', '6'],
      location: 'Sala 21',
    });
    const again = runImport(csv, '--group', 'classes');
    expect(again.stdout).toMatch(/0 created, 0 updated, 2 unchanged, 2 refused/);
    expect((await api.get(`/api/classes/${three}`)).headers.get('etag')).toBe('"1"');
    await expectProblem(await api.send('DELETE', `/api/courses/${course.course_id}`), 409);
  });

  it('loads the gradebook setup from CSV, its numbers as numbers, and refuses a scale that is neither kind', async () => {
    const sessions = (
      await json<Record<string, unknown>>(await api.get('/api/academic_sessions?items_per_page=100'))
    ).academic_sessions as Record<string, string>[];
    const year = sessions.find((s) => s.type === 'school_year')?.academic_session_id;
    const [category, numeric, letter, mixed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const categories = join(dir, 'categories.csv');
    writeFileSync(
      categories,
      ['category_id,title,weight,school_year_id', `${category},Projetos,12.5,${year}`].join('\n'),
    );
    const scales = join(dir, 'score_scales.csv');
    writeFileSync(
      scales,
      [
        'score_scale_id,title,type,minimum,maximum,values.0,values.1',
        `${numeric},Percentagem,numeric,0,100,,`,
        `${letter},Aprovação,letter,,,Aprovado,Não aprovado`,
        `${mixed},Mista,numeric,0,10,A,`,
      ].join('\n'),
    );
    const loaded = runImport(categories, '--group', 'categories');
    expect(loaded.status, loaded.stderr).toBe(0);
    expect(await json(await api.get(`/api/categories/${category}`))).toMatchObject({
      title: 'Projetos',
      weight: 12.5,
    });
    // A number is written in decimal: `Number` would read 0x10 as 16.
    const hex = randomUUID();
    const hexCategories = join(dir, 'hex-categories.csv');
    writeFileSync(
      hexCategories,
      ['category_id,title,weight,school_year_id', `${hex},Hex,0x10,${year}`].join('\n'),
    );
    const refused = runImport(hexCategories, '--group', 'categories');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('line 2: weight');
    await expectProblem(await api.get(`/api/categories/${hex}`), 404);
    const scaled = runImport(scales, '--group', 'score_scales');
    expect(scaled.status).toBe(1);
    expect(scaled.stdout).toContain('line 4: values: a numeric scale has no letter values');
    expect(await json(await api.get(`/api/score_scales/${numeric}`))).toMatchObject({
      type: 'numeric',
      minimum: 0,
      maximum: 100,
      values: [],
    });
    expect(await json(await api.get(`/api/score_scales/${letter}`))).toMatchObject({
      type: 'letter',
      minimum: null,
      maximum: null,
      values: ['Aprovado', 'Não aprovado'],
    });
    await expectProblem(await api.get(`/api/score_scales/${mixed}`), 404);
  });

  it('makes a result or an attendance mark only for a student of its class, as the API does', async () => {
    const { classId, studentId } = await people.sharedClass();
    const outsider = await people.studentNotInClass(classId);
    const { line_items: items } = await json<Record<string, Record<string, unknown>[]>>(
      await api.get('/api/line_items?items_per_page=500'),
    );
    const lineItem = items?.find((i) => i.class_id === classId)?.line_item_id as string;
    const [kept, refused] = [randomUUID(), randomUUID()];
    const results = join(dir, 'results.csv');
    writeFileSync(
      results,
      [
        'result_id,class_id,line_item_id,student_id,status,score,score_date',
        `${kept},${classId},${lineItem},${studentId},fully graded,15,2026-10-20`,
        `${refused},${classId},${lineItem},${outsider},fully graded,15,2026-10-20`,
      ].join('\n'),
    );
    const graded = runImport(results, '--group', 'results');
    expect(graded.status, graded.stderr).toBe(1);
    expect(graded.stdout).toContain(
      `line 3: student_id: student ${outsider} is not enrolled in class ${classId}`,
    );
    await expectProblem(await api.get(`/api/results/${refused}`), 404);
    const [mark, stray] = [randomUUID(), randomUUID()];
    const attendance = join(dir, 'attendance.csv');
    writeFileSync(
      attendance,
      [
        'attendance_id,class_id,student_id,date,status',
        `${mark},${classId},${studentId},2026-10-21,present`,
        `${stray},${classId},${outsider},2026-10-21,present`,
      ].join('\n'),
    );
    const marked = runImport(attendance, '--group', 'attendance');
    expect(marked.status, marked.stderr).toBe(1);
    expect(marked.stdout).toContain(
      `line 3: student_id: student ${outsider} is not enrolled in class ${classId}`,
    );
    await expectProblem(await api.get(`/api/attendance/${stray}`), 404);
  });

  it('refuses a file that is not UTF-8 text whole, with exit code 2, writing nothing', async () => {
    // A spreadsheet's "CSV" in Windows-1252: its accented letters are single bytes no UTF-8 text holds.
    const csv = join(dir, 'latin1.csv');
    writeFileSync(
      csv,
      Buffer.from(`${header}\n${row('LAT1', 'João Araújo', 'joao@example.org', GOOD_IBAN)}\n`, 'latin1'),
    );
    const json = join(dir, 'latin1.ndjson');
    writeFileSync(json, Buffer.from('{"processnumber":"LAT2","name":"Inês"}\n', 'latin1'));
    const before = await api.get('/api/system').then((r) => r.json());
    for (const [file, format] of [
      [csv, 'csv'],
      [json, 'ndjson'],
    ] as const) {
      const result = runImport(file, '--group', 'students', '--format', format);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${file} is not UTF-8 text`);
    }
    expect(await byProcessnumber('students', 'LAT1')).toBeUndefined();
    expect(await api.get('/api/system').then((r) => r.json())).toMatchObject({
      counts: (before as { counts: object }).counts,
    });
  });

  it("reads a spreadsheet's unquoted formula as text, refuses by its line a row an unquoted comma shifts, and a file whose quote never closes whole", async () => {
    const csv = studentsCsv(
      'formulas.csv',
      row('HYP1', '=HYPERLINK("https://x.example")', 'hyp1@example.org', GOOD_IBAN),
      row('HYP2', '=HYPERLINK("https://x.example","Ana")', 'hyp2@example.org', GOOD_IBAN),
      row('HYP3', 'Ana Lopes', 'hyp3@example.org', GOOD_IBAN),
    );
    const result = runImport(csv, '--group', 'students');
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('line 3: has another number of cells than the header');
    expect(result.stdout).toMatch(/3 rows in .*: 2 created, 0 updated, 0 unchanged, 1 refused/);
    expect((await byProcessnumber<Student>('students', 'HYP1'))?.name).toBe(
      '=HYPERLINK("https://x.example")',
    );
    expect(await byProcessnumber('students', 'HYP2')).toBeUndefined();
    expect(await byProcessnumber('students', 'HYP3')).toBeDefined();

    const unclosed = studentsCsv(
      'unclosed.csv',
      row('HYP4', 'Rita Sousa', 'hyp4@example.org', GOOD_IBAN),
      'HYP5,true,"Rui',
    );
    const before = await api.get('/api/system').then((r) => r.json());
    const refused = runImport(unclosed, '--group', 'students');
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${unclosed} is not readable as CSV (Quote Not Closed`);
    expect(refused.stderr).toContain('Nothing was written.');
    expect(await byProcessnumber('students', 'HYP4')).toBeUndefined();
    expect(await api.get('/api/system').then((r) => r.json())).toMatchObject({
      counts: (before as { counts: object }).counts,
    });
  });

  it('refuses bad arguments with a usage line and exit code 2', () => {
    for (const args of [
      [],
      ['x.csv'],
      ['x.csv', '--group', 'entities'],
      ['x.xlsx', '--group', 'students'],
      ['x.csv', '--group', 'students', '--nope'],
    ]) {
      const result = runImport(...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage: npm run import');
    }
  });
});
