// `npm run import -- roster.zip --format oneroster`: a OneRoster CSV 1.2.1 bulk zip made by the export
// itself, then changed, loads through the record writer with bad rows reported by file and line; a re-run
// changes nothing; a delta zip updates only what it lists. A vendor's zip (ids that are not UUIDs, every
// kind of user) loads whole and its delta deletes; the export's zip loads into an empty tenant.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourcedIds } from '../infra/cli/oneroster-ids';
import { ensureTable } from '../infra/local/bootstrap';
import { RecordRepository } from '../shared/data/record-repository';
import { idFields, type RecordGroup, recordGroups } from '../shared/domain/groups';
import { type OneRosterTable, tableCsv } from '../shared/exports/oneroster-csv';
import { runCliOn } from './support/cli-run';
import { json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'school-oneroster-import-'));
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

function run(script: string, ...args: string[]) {
  return runOn(api.tableName, script, ...args);
}

const runOn = runCliOn;

type Cells = Record<string, string>;
/** A file's rows; none for a file the zip has not (a table without rows is absent). */
const rowsOf = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? [] : (parse(Buffer.from(bytes), { columns: true }) as Cells[]);
const manifestOf = (modes: Record<string, string>) =>
  `propertyName,value\r\nmanifest.version,1.0\r\noneroster.version,1.2\r\n${Object.entries(modes)
    .map(([name, mode]) => `file.${name},${mode}\r\n`)
    .join('')}source.systemName,test\r\n`;

// The export and the imports of a whole demo tenant take a minute or more on a busy machine.
describe('npm run import --format oneroster', () => {
  let files: Record<string, Uint8Array>;
  const copiedGroups = recordGroups.filter((g) => ['classes', 'enrollments', 'tutors'].includes(g));
  const asExported = new Map<RecordGroup, Record<string, unknown>>();

  it('loads a changed bulk zip from the export, reports bad rows by file and line, and a re-run changes nothing', async () => {
    // A gender the binding has no word for: exported as `other`, it must load back as it is.
    const [student] = (await json<Record<string, unknown>>(await api.get('/api/students?items_per_page=1')))
      .students as Cells[];
    const { student_id: studentId, created_at: _c, updated_at: _u, ...fields } = student as Cells;
    await json(await api.send('PUT', `/api/students/${studentId}`, { ...fields, gender: 'Não binário' }));
    const out = join(dir, 'export');
    const exported = run('infra/cli/export.ts', '--out', out);
    expect(exported.status, exported.stderr).toBe(0);
    const [runId] = readdirSync(out);
    files = unzipSync(readFileSync(join(out, runId as string, 'oneroster-csv.zip')));
    // A record of each rostering and role group as exported, before later tests add their own and change
    // some: the copy loaded from this zip is compared with these.
    for (const group of copiedGroups) {
      const [sample] = (await api.records.listPage(group, { itemsPerPage: 1 })).items;
      asExported.set(group, sample as Record<string, unknown>);
    }

    const courses = rowsOf(files['courses.csv']);
    const classes = rowsOf(files['classes.csv']);
    const enrollments = rowsOf(files['enrollments.csv']);
    const renamed: Cells = { ...(courses[0] as Cells), title: 'Matemática A (revista)' };
    const newClass: Cells = {
      ...(classes[0] as Cells),
      sourcedId: randomUUID(),
      title: 'Turma nova',
      classCode: 'NOVA',
    };
    const badCourse: Cells = { ...(courses[1] as Cells), sourcedId: randomUUID(), orgSourcedId: 'not-an-id' };
    const badEnrollment: Cells = {
      ...(enrollments[0] as Cells),
      sourcedId: randomUUID(),
      userSourcedId: randomUUID(),
    };
    const zip = join(dir, 'bulk.zip');
    writeFileSync(
      zip,
      zipSync({
        ...files,
        'courses.csv': strToU8(tableCsv('courses', [renamed, ...courses.slice(1), badCourse])),
        'classes.csv': strToU8(tableCsv('classes', [...classes, newClass])),
        'enrollments.csv': strToU8(tableCsv('enrollments', [...enrollments, badEnrollment])),
      }),
    );

    const gendersOf = async (group: 'students' | 'teachers') =>
      Object.fromEntries(
        (
          (await json<Record<string, unknown>>(await api.get(`/api/${group}?items_per_page=500`)))[
            group
          ] as Cells[]
        ).map((r) => [r[idFields[group]], r.gender]),
      );
    const [studentGenders, teacherGenders] = [await gendersOf('students'), await gendersOf('teachers')];
    const tutorsBefore = (
      await json<Record<string, unknown>>(await api.get('/api/tutors?items_per_page=500'))
    ).tutors as Cells[];
    expect(Object.values(studentGenders)).toContain('Female');
    expect(studentGenders[studentId as string]).toBe('Não binário');
    const first = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(first.status, first.stderr).toBe(1);
    // Line 1 is the header: the bad course is the file's last row.
    expect(first.stdout).toMatch(new RegExp(`courses\\.csv line ${courses.length + 2}: org_id`));
    expect(first.stdout).toMatch(new RegExp(`enrollments\\.csv line ${enrollments.length + 2}: `));
    // An organisation without a parent holds no parent_id, and the file's none leaves it so.
    expect(first.stdout).toMatch(/orgs\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/);
    expect(first.stdout).toMatch(/users\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/);
    // Nor any role: an enabled user's inactive role beside an active one stays inactive.
    expect(first.stdout).toMatch(/roles\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/);
    // A person's gender that the file's sex stands for stays as written ("Female", not "female").
    expect(await gendersOf('students')).toEqual(studentGenders);
    expect(await gendersOf('teachers')).toEqual(teacherGenders);
    // A guardian's students are a set: the file's order leaves the record as it is.
    const tutorsAfter = (await json<Record<string, unknown>>(await api.get('/api/tutors?items_per_page=500')))
      .tutors as Cells[];
    expect(tutorsAfter.map((t) => [t.tutor_id, t.student_ids, t.updated_at])).toEqual(
      tutorsBefore.map((t) => [t.tutor_id, t.student_ids, t.updated_at]),
    );
    expect(first.stdout).toContain(`courses.csv: ${courses.length + 1} rows: 0 created, 1 updated`);
    expect(first.stdout).toContain(`classes.csv: ${classes.length + 1} rows: 1 created, 0 updated`);
    expect(first.stdout).toMatch(
      /academicSessions\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/,
    );
    expect(first.stdout).toContain(`enrollments.csv: ${enrollments.length + 1} rows: 0 created, 0 updated`);
    // The gradebook's files, a line item on the tenant's scale given with its range, change nothing.
    for (const gradebookTable of ['categories', 'scoreScales', 'lineItems', 'results'])
      expect(first.stdout).toMatch(
        new RegExp(`${gradebookTable}\\.csv: \\d+ rows: 0 created, 0 updated, \\d+ unchanged, 0 refused`),
      );

    const course = await json<Cells>(await api.get(`/api/courses/${renamed.sourcedId}`));
    expect(course.title).toBe('Matemática A (revista)');
    const created = await json<Record<string, unknown>>(await api.get(`/api/classes/${newClass.sourcedId}`));
    expect(created).toMatchObject({
      title: 'Turma nova',
      class_code: 'NOVA',
      course_id: newClass.courseSourcedId,
    });
    expect((await api.get(`/api/enrollments/${badEnrollment.sourcedId}`)).status).toBe(404);

    const again = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(again.status).toBe(1);
    expect(again.stdout).toMatch(
      /: \d+ rows in [\d.]+ s \([\d.]+ rows\/s\): 0 created, 0 updated, \d+ unchanged, 2 refused, 0 deleted\n$/,
    );
  }, 300_000);

  it("loads the gradebook's files: a score changed, a line item on its class's scale, bad rows refused by line", async () => {
    const table = (name: string) => rowsOf(files[`${name}.csv`]);
    const [items, results, scales] = [table('lineItems'), table('results'), table('scoreScales')];
    // The export's own gradebook loads back unchanged (the first test loaded it with the rest).
    const [scale] = scales as [Cells];
    const onItsClass = items.find((i) => i.classSourcedId === scale.classSourcedId) as Cells;
    const newItem: Cells = {
      ...onItsClass,
      sourcedId: randomUUID(),
      title: 'Apresentação oral',
      resultValueMin: '',
      resultValueMax: '',
    };
    const link: Cells = {
      sourcedId: newItem.sourcedId as string,
      lineItemSourcedId: newItem.sourcedId as string,
      scoreScaleSourcedId: scale.sourcedId as string,
    };
    const rescored: Cells = { ...(results[0] as Cells), score: '19', comment: 'Revisto, 2.ª chamada' };
    const teacher = table('roles').find((r) => r.role === 'teacher')?.userSourcedId as string;
    const ofTeacher: Cells = { ...(results[1] as Cells), sourcedId: randomUUID(), studentSourcedId: teacher };
    const ofNoItem: Cells = {
      ...(results[1] as Cells),
      sourcedId: randomUUID(),
      lineItemSourcedId: randomUUID(),
    };
    const percent: Cells = { ...scale, sourcedId: randomUUID(), type: 'percent' };
    const zip = join(dir, 'gradebook.zip');
    const gradebook = ['categories', 'scoreScales', 'lineItems', 'lineItemScoreScales', 'results'] as const;
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(manifestOf(Object.fromEntries(gradebook.map((t) => [t, 'bulk'])))),
        'categories.csv': files['categories.csv'] as Uint8Array,
        'scoreScales.csv': strToU8(tableCsv('scoreScales', [...scales, percent])),
        'lineItems.csv': strToU8(tableCsv('lineItems', [...items, newItem])),
        'lineItemScoreScales.csv': strToU8(
          tableCsv('lineItemScoreScales', [...table('lineItemScoreScales'), link]),
        ),
        // A file names each object once: a second row of the same result is refused, not last to win.
        'results.csv': strToU8(
          tableCsv('results', [
            rescored,
            ...results.slice(1),
            ofTeacher,
            ofNoItem,
            { ...rescored, score: '3' },
          ]),
        ),
      }),
    );
    const loaded = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(loaded.status, loaded.stdout + loaded.stderr).toBe(1);
    expect(loaded.stdout).toMatch(
      /categories\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/,
    );
    expect(loaded.stdout).toContain(
      `scoreScales.csv line ${scales.length + 2}: type: must be numeric or letter`,
    );
    expect(loaded.stdout).toContain(`lineItems.csv: ${items.length + 1} rows: 1 created, 0 updated`);
    expect(loaded.stdout).toContain(
      `results.csv line ${results.length + 2}: studentSourcedId: names no user who is a student`,
    );
    expect(loaded.stdout).toContain(
      `results.csv line ${results.length + 3}: lineItemSourcedId: names no line item`,
    );
    expect(loaded.stdout).toContain(
      `results.csv line ${results.length + 4}: sourcedId: is the one of line 2 again`,
    );
    expect(loaded.stdout).toContain(`results.csv: ${results.length + 3} rows: 0 created, 1 updated`);

    const made = await json<Record<string, unknown>>(await api.get(`/api/line_items/${newItem.sourcedId}`));
    expect(made).toMatchObject({
      title: 'Apresentação oral',
      class_id: scale.classSourcedId,
      score_scale_id: scale.sourcedId,
      result_value_max: null,
      released: false,
    });
    const result = await json<Record<string, unknown>>(await api.get(`/api/results/${rescored.sourcedId}`));
    expect(result).toMatchObject({ score: 19, comment: 'Revisto, 2.ª chamada' });
    expect((await api.get(`/api/results/${ofTeacher.sourcedId}`)).status).toBe(404);
  }, 300_000);

  it('refuses on its line each gradebook row the REST binding would refuse, and writes none of them', async () => {
    const table = (name: string) => rowsOf(files[`${name}.csv`]);
    const [items, results, scales] = [table('lineItems'), table('results'), table('scoreScales')];
    const [scale] = scales as [Cells];
    const { score_scales: all } = await json<Record<string, Cells[]>>(
      await api.get('/api/score_scales?items_per_page=100'),
    );
    const tenantScale = all?.find((s) => s.class_id === null) as Cells;
    // A line item of another class than the scale's: the scale is not one it can be on.
    const item = items.find((i) => i.classSourcedId !== scale.classSourcedId) as Cells;
    const enrolledIn = new Set(
      table('enrollments')
        .filter((e) => e.classSourcedId === item.classSourcedId)
        .map((e) => e.userSourcedId),
    );
    const elsewhere = table('roles').find((r) => r.role === 'student' && !enrolledIn.has(r.userSourcedId))
      ?.userSourcedId as string;
    const fresh = () => randomUUID();
    const badScales: Cells[] = [
      // The binding's scales are a class's: none made without one, and the tenant's not changed.
      { ...scale, sourcedId: fresh(), classSourcedId: '' },
      { ...scale, sourcedId: tenantScale.score_scale_id as string, title: 'Mudada' },
      { ...scale, sourcedId: fresh(), scoreScaleValue: '{A:A},{B' },
      // Read by splitting, so a cell of many blanks costs no more than its length.
      { ...scale, sourcedId: fresh(), scoreScaleValue: `{${' '.repeat(20_000)}x` },
      // Blanks are no sourcedId.
      { ...scale, sourcedId: '   ' },
    ];
    const badItems: Cells[] = [
      { ...item, sourcedId: fresh(), assignDate: '5' },
      { ...item, sourcedId: fresh(), resultValueMax: '0x14' },
      { ...item, sourcedId: fresh(), academicSessionSourcedId: fresh() },
      { ...item, sourcedId: fresh(), schoolSourcedId: fresh() },
      // A time there is not is refused on its line, not the whole import.
      { ...item, sourcedId: fresh(), assignDate: '2026-10-01T99:00Z' },
      { ...item, sourcedId: fresh(), academicSessionSourcedId: '' },
    ];
    const badLinks: Cells[] = [
      {
        sourcedId: fresh(),
        lineItemSourcedId: item.sourcedId as string,
        scoreScaleSourcedId: scale.sourcedId as string,
      },
      { sourcedId: fresh(), lineItemSourcedId: item.sourcedId as string, scoreScaleSourcedId: fresh() },
      { sourcedId: fresh(), lineItemSourcedId: fresh(), scoreScaleSourcedId: scale.sourcedId as string },
    ];
    const notInClass: Cells = {
      ...(results.find((r) => r.lineItemSourcedId === item.sourcedId) as Cells),
      sourcedId: fresh(),
      studentSourcedId: elsewhere,
    };
    const resultLines = tableCsv('results', [
      notInClass,
      { ...notInClass, sourcedId: fresh() },
      // A UUID in capitals is the same sourcedId.
      { ...notInClass, sourcedId: (notInClass.sourcedId as string).toUpperCase() },
    ]).split('\r\n');
    resultLines[2] = `${resultLines[2]},extra`;
    const zip = join(dir, 'gradebook-refused.zip');
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(
          manifestOf({
            scoreScales: 'bulk',
            lineItems: 'bulk',
            lineItemScoreScales: 'bulk',
            results: 'bulk',
          }),
        ),
        'scoreScales.csv': strToU8(tableCsv('scoreScales', badScales)),
        'lineItems.csv': strToU8(tableCsv('lineItems', badItems)),
        'lineItemScoreScales.csv': strToU8(tableCsv('lineItemScoreScales', badLinks)),
        // A comma left unquoted makes a row of more cells than the header: none is read into another column.
        'results.csv': strToU8(resultLines.join('\r\n')),
      }),
    );
    const loaded = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(loaded.status, loaded.stdout + loaded.stderr).toBe(1);
    for (const line of [
      "scoreScales.csv line 2: classSourcedId: is empty: a score scale is a class's",
      "scoreScales.csv line 3: sourcedId: names one of the tenant's score scales, which belong to no class",
      'scoreScales.csv line 4: scoreScaleValue: must be {LHS:RHS} pairs, comma-separated',
      'scoreScales.csv line 5: scoreScaleValue: must be {LHS:RHS} pairs, comma-separated',
      'scoreScales.csv line 6: sourcedId is empty',
      'lineItems.csv line 6: assign_date',
      "lineItems.csv line 7: academicSessionSourcedId: is empty: the binding requires a line item's session",
      'lineItems.csv line 2: assign_date',
      'lineItems.csv line 3: result_value_max',
      'lineItems.csv line 4: academicSessionSourcedId: names no academic session',
      "lineItems.csv line 5: schoolSourcedId: is not the class's school",
      'lineItemScoreScales.csv line 3: lineItemSourcedId: has its scale on line 2',
      'lineItemScoreScales.csv line 4: lineItemSourcedId: names no line item',
      `results.csv line 2: studentSourcedId: is not a student of class ${item.classSourcedId}`,
      'results.csv line 3: has another number of cells than the header',
      'results.csv line 4: sourcedId: is the one of line 2 again',
    ])
      expect(loaded.stdout).toContain(line);
    expect(loaded.stdout).toMatch(/scoreScales\.csv: 5 rows: 0 created, 0 updated, 0 unchanged, 5 refused/);
    expect(loaded.stdout).toMatch(/lineItems\.csv: 6 rows: 0 created, 0 updated, 0 unchanged, 6 refused/);
    expect(loaded.stdout).toMatch(/results\.csv: 3 rows: 0 created, 0 updated, 0 unchanged, 3 refused/);
    expect(loaded.stdout).toMatch(
      /lineItemScoreScales\.csv: 3 rows: 0 created, 0 updated, 0 unchanged, 3 refused/,
    );
    expect(loaded.stdout).toMatch(/lineItemScoreScales\.csv line 2: score_scale_id: /);
    const kept = await json<Cells>(await api.get(`/api/score_scales/${tenantScale.score_scale_id}`));
    expect(kept.title).toBe(tenantScale.title);

    // Nor does a delta delete one of the tenant's scales.
    const delta = join(dir, 'gradebook-delta.zip');
    const gone: Cells = { ...scale, sourcedId: tenantScale.score_scale_id as string, status: 'tobedeleted' };
    writeFileSync(
      delta,
      zipSync({
        'manifest.csv': strToU8(manifestOf({ scoreScales: 'delta' })),
        'scoreScales.csv': strToU8(tableCsv('scoreScales', [gone])),
      }),
    );
    const deleted = run('infra/cli/import.ts', delta, '--format', 'oneroster');
    expect(deleted.stdout).toContain(
      "scoreScales.csv line 2: sourcedId: names one of the tenant's score scales, which belong to no class",
    );
    expect((await api.get(`/api/score_scales/${tenantScale.score_scale_id}`)).status).toBe(200);
  }, 300_000);

  it('loads a delta zip: only the rows it lists change', async () => {
    const courses = rowsOf(files['courses.csv']);
    const target: Cells = {
      ...(courses[2] as Cells),
      status: 'active',
      dateLastModified: new Date().toISOString(),
      title: 'Português (delta)',
    };
    const zip = join(dir, 'delta.zip');
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(manifestOf({ courses: 'delta', classes: 'absent', orgs: 'absent' })),
        // Blank lines, as an editor leaves at the end of a file, are no rows.
        'courses.csv': strToU8(`${tableCsv('courses' satisfies OneRosterTable, [target])}\r\n\r\n`),
      }),
    );
    const result = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'courses.csv: 1 rows: 0 created, 1 updated, 0 unchanged, 0 refused, 0 deleted',
    );
    const course = await json<Cells>(await api.get(`/api/courses/${target.sourcedId}`));
    expect(course.title).toBe('Português (delta)');
  });

  it("loads a vendor's bulk zip whole, and its delta deletes an enrollment and updates a class", async () => {
    const ids = new SourcedIds('demo');
    const csvOf = (table: OneRosterTable, rows: readonly Partial<Cells>[]) => strToU8(tableCsv(table, rows));
    const bulk = {
      orgs: [
        // A school before its district: the import writes parents first.
        {
          sourcedId: 'sch-n',
          name: 'Escola Norte',
          type: 'school',
          identifier: 'EN',
          parentSourcedId: 'dist-1',
        },
        { sourcedId: 'dist-1', name: 'Agrupamento Vendor', type: 'district', identifier: 'AV' },
        {
          sourcedId: 'sch-s',
          name: 'Escola Sul',
          type: 'school',
          identifier: 'ES',
          parentSourcedId: 'dist-1',
        },
      ],
      academicSessions: [
        {
          sourcedId: 'term-1',
          title: '1.º período',
          type: 'term',
          startDate: '2026-09-14',
          endDate: '2026-12-18',
          parentSourcedId: 'year-1',
          schoolYear: '2027',
        },
        {
          sourcedId: 'year-1',
          title: '2026/27',
          type: 'schoolYear',
          startDate: '2026-09-01',
          endDate: '2027-07-31',
          schoolYear: '2027',
        },
      ],
      courses: [
        {
          sourcedId: 'crs-mat',
          title: 'Matemática 7',
          courseCode: 'MAT7',
          grades: '07',
          orgSourcedId: 'dist-1',
        },
        { sourcedId: 'crs-bad', title: 'Sem escola', orgSourcedId: 'no-such-org' },
      ],
      classes: [
        {
          sourcedId: 'cls-7a',
          title: '7.º A Matemática',
          courseSourcedId: 'crs-mat',
          classType: 'scheduled',
          schoolSourcedId: 'sch-n',
          termSourcedIds: 'term-1',
          periods: '1,2',
        },
      ],
      users: [
        {
          sourcedId: 'stu-1',
          enabledUser: 'true',
          username: 'msousa',
          givenName: 'Maria',
          familyName: 'Sousa',
          identifier: 'A100',
          email: 'maria.sousa@vendor.example',
        },
        {
          sourcedId: 'stu-2',
          enabledUser: 'true',
          username: 'joao',
          givenName: 'João',
          familyName: 'João',
          email: 'joao@vendor.example',
        },
        {
          sourcedId: 'tch-1',
          enabledUser: 'true',
          username: 'rcosta',
          givenName: 'Rui',
          familyName: 'Costa',
          email: 'rui@vendor.example',
        },
        {
          sourcedId: 'grd-1',
          enabledUser: 'true',
          username: 'psousa',
          givenName: 'Paula',
          familyName: 'Sousa',
          email: 'paula@vendor.example',
          agentSourcedIds: 'stu-1',
        },
        // No e-mail address: the person gets one that says so.
        {
          sourcedId: 'adm-1',
          enabledUser: 'false',
          username: 'admin1',
          givenName: 'Ana',
          familyName: 'Lima',
        },
      ],
      roles: [
        ['r-stu-1', 'stu-1', 'student', 'sch-n'],
        ['r-stu-2', 'stu-2', 'student', 'sch-n'],
        ['r-tch-1', 'tch-1', 'teacher', 'sch-n'],
        ['r-grd-1', 'grd-1', 'guardian', 'dist-1'],
        ['r-adm-1', 'adm-1', 'administrator', 'dist-1'],
      ].map(([sourcedId, userSourcedId, role, orgSourcedId]) => ({
        sourcedId,
        userSourcedId,
        roleType: 'primary',
        role,
        orgSourcedId,
      })) as Cells[],
      demographics: ['stu-1', 'stu-2', 'tch-1', 'grd-1', 'adm-1'].map((sourcedId, i) => ({
        sourcedId,
        birthDate: `${1980 + i * 7}-05-0${i + 1}`,
        sex: i % 2 === 0 ? 'female' : 'male',
        cityOfBirth: 'Braga',
      })),
      enrollments: [
        ['enr-1', 'stu-1', 'student'],
        ['enr-2', 'stu-2', 'student'],
        ['enr-3', 'tch-1', 'teacher'],
      ].map(([sourcedId, userSourcedId, role]) => ({
        sourcedId,
        classSourcedId: 'cls-7a',
        schoolSourcedId: 'sch-n',
        userSourcedId,
        role,
        primary: role === 'teacher' ? 'true' : 'false',
      })) as Cells[],
    } satisfies Partial<Record<OneRosterTable, Partial<Cells>[]>>;
    const zip = join(dir, 'vendor.zip');
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(manifestOf(Object.fromEntries(Object.keys(bulk).map((t) => [t, 'bulk'])))),
        ...Object.fromEntries(
          Object.entries(bulk).map(([table, rows]) => [`${table}.csv`, csvOf(table as OneRosterTable, rows)]),
        ),
      }),
    );

    const first = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(first.status, first.stdout + first.stderr).toBe(1);
    expect(first.stdout).toMatch(/courses\.csv line 3: org_id/);
    expect(first.stdout).toContain(
      'orgs.csv: 3 rows: 3 created, 0 updated, 0 unchanged, 0 refused, 0 deleted',
    );
    expect(first.stdout).toContain('users.csv: 5 rows: 5 created');
    expect(first.stdout).toContain('roles.csv: 5 rows: 5 created');
    expect(first.stdout).toContain('enrollments.csv: 3 rows: 3 created');

    const get = async (path: string) => json<Record<string, unknown>>(await api.get(`/api/${path}`));
    const org = (s: string) => ids.id('org', s);
    const user = (s: string) => ids.id('user', s);
    const role = (s: string) => ids.id('role', s);
    expect(await get(`entities/${org('sch-n')}`)).toMatchObject({
      entity_type: 'organisation',
      name: 'Escola Norte',
      org_type: 'school',
      parent_id: org('dist-1'),
    });
    expect(await get(`entities/${user('stu-1')}`)).toMatchObject({
      entity_type: 'person',
      name: 'Maria Sousa',
      email: 'maria.sousa@vendor.example',
      roles: [{ role: 'student', id: role('r-stu-1') }],
    });
    expect(await get(`students/${role('r-stu-1')}`)).toMatchObject({
      processnumber: 'A100',
      name: 'Maria Sousa',
      entity_id: user('stu-1'),
      birth_date: '1980-05-01',
      gender: 'female',
      naturality: 'Braga',
      ative: true,
    });
    // Without an identifier, the processnumber is the user's sourcedId; a one-word name is written once.
    expect(await get(`students/${role('r-stu-2')}`)).toMatchObject({ processnumber: 'stu-2', name: 'João' });
    expect(await get(`teachers/${role('r-tch-1')}`)).toMatchObject({ processnumber: 'tch-1' });
    expect(await get(`tutors/${role('r-grd-1')}`)).toMatchObject({ student_ids: [role('r-stu-1')] });
    expect(await get(`staffs/${role('r-adm-1')}`)).toMatchObject({
      ative: false,
      email: `${user('adm-1')}@oneroster.invalid`,
    });
    expect(await get(`classes/${ids.id('class', 'cls-7a')}`)).toMatchObject({
      course_id: ids.id('course', 'crs-mat'),
      school_id: org('sch-n'),
      term_ids: [ids.id('academicSession', 'term-1')],
      periods: ['1', '2'],
    });
    expect(await get(`academic_sessions/${ids.id('academicSession', 'term-1')}`)).toMatchObject({
      parent_id: ids.id('academicSession', 'year-1'),
    });
    expect(await get(`enrollments/${ids.id('enrollment', 'enr-3')}`)).toMatchObject({
      entity_id: user('tch-1'),
      role: 'teacher',
      primary: true,
    });

    const again = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(again.stdout).toMatch(
      /: 21 rows in [\d.]+ s \([\d.]+ rows\/s\): 0 created, 0 updated, 20 unchanged, 1 refused, 0 deleted\n$/,
    );

    const delta = join(dir, 'vendor-delta.zip');
    const stamp = { status: 'active', dateLastModified: new Date().toISOString() };
    writeFileSync(
      delta,
      zipSync({
        'manifest.csv': strToU8(manifestOf({ classes: 'delta', enrollments: 'delta', users: 'absent' })),
        'classes.csv': csvOf('classes', [
          { ...(bulk.classes[0] as Cells), ...stamp, title: '7.º A (revista)' },
        ]),
        'enrollments.csv': csvOf('enrollments', [
          { ...(bulk.enrollments[1] as Cells), ...stamp, status: 'tobedeleted' },
        ]),
      }),
    );
    const applied = run('infra/cli/import.ts', delta, '--format', 'oneroster');
    expect(applied.status, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      'classes.csv: 1 rows: 0 created, 1 updated, 0 unchanged, 0 refused, 0 deleted',
    );
    expect(applied.stdout).toContain(
      'enrollments.csv: 1 rows: 0 created, 0 updated, 0 unchanged, 0 refused, 1 deleted',
    );
    expect((await api.get(`/api/enrollments/${ids.id('enrollment', 'enr-2')}`)).status).toBe(410);
    expect(await get(`classes/${ids.id('class', 'cls-7a')}`)).toMatchObject({ title: '7.º A (revista)' });
    expect(await get(`enrollments/${ids.id('enrollment', 'enr-1')}`)).toMatchObject({
      entity_id: user('stu-1'),
    });

    // An enrollment already gone (410 above) is unchanged: the delta applies once.
    const twice = run('infra/cli/import.ts', delta, '--format', 'oneroster');
    expect(twice.status).toBe(0);
    expect(twice.stdout).toMatch(
      /: 2 rows in [\d.]+ s \([\d.]+ rows\/s\): 0 created, 0 updated, 2 unchanged, 0 refused, 0 deleted\n$/,
    );
  }, 300_000);

  it("loads the export's zip into an empty tenant, record for record, and a re-run changes nothing", async () => {
    const tableName = `${api.tableName}-copy`;
    await ensureTable(api.db, tableName, { stream: false });
    const zip = join(dir, 'export.zip');
    writeFileSync(zip, zipSync(files));
    const loaded = runOn(tableName, 'infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(loaded.status, loaded.stdout + loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(
      /: \d+ rows in [\d.]+ s \([\d.]+ rows\/s\): \d+ created, 0 updated, 0 unchanged, 0 refused, 0 deleted\n$/,
    );

    const copy = new RecordRepository(api.db, tableName);
    const count = (table: string) => rowsOf(files[`${table}.csv`]).length;
    const roles = rowsOf(files['roles.csv']);
    expect(await copy.count('entities')).toBe(count('orgs') + count('users'));
    expect(await copy.count('academic_sessions')).toBe(count('academicSessions'));
    for (const group of ['courses', 'classes', 'enrollments'] as const)
      expect(await copy.count(group)).toBe(count(group));
    expect(await copy.count('students')).toBe(roles.filter((r) => r.role === 'student').length);
    expect(await copy.count('tutors')).toBe(roles.filter((r) => r.role === 'guardian').length);
    const gradebook = [
      ['categories', 'categories'],
      ['score_scales', 'scoreScales'],
      ['line_items', 'lineItems'],
      ['results', 'results'],
    ] as const;
    for (const [group, table] of gradebook) expect(await copy.count(group)).toBe(count(table));
    // A line item on the tenant's scale of 0 to 20, which no zip holds, is scored out of 20 in the copy.
    const linked = new Set(rowsOf(files['lineItemScoreScales.csv']).map((l) => l.lineItemSourcedId));
    const outOf20 = rowsOf(files['lineItems.csv']).find(
      (i) => i.resultValueMax === '20' && !linked.has(i.sourcedId),
    );
    const copied = await copy.get('line_items', outOf20?.sourcedId as string);
    expect(copied?.record).toMatchObject({ result_value_min: 0, result_value_max: 20, score_scale_id: null });
    // Rostering records and role records keep their ids and fields.
    for (const group of copiedGroups) {
      const sample = asExported.get(group);
      const id = (sample as Record<string, string>)[
        `${group === 'classes' ? 'class' : group.slice(0, -1)}_id`
      ] as string;
      const copied = await copy.get(group, id);
      const pick = (r: Record<string, unknown>) =>
        Object.fromEntries(
          [
            'title',
            'course_id',
            'term_ids',
            'class_id',
            'entity_id',
            'role',
            'student_ids',
            'birth_date',
          ].map((f) => [f, r[f]]),
        );
      expect(pick(copied?.record as Record<string, unknown>)).toEqual(
        pick(sample as Record<string, unknown>),
      );
    }

    const again = runOn(tableName, 'infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(again.stdout).toMatch(
      /: \d+ rows in [\d.]+ s \([\d.]+ rows\/s\): 0 created, 0 updated, \d+ unchanged, 0 refused, 0 deleted\n$/,
    );
  }, 300_000);

  it('refuses a file that is not a OneRoster zip with exit status 2', () => {
    const notZip = join(dir, 'roster.zip');
    writeFileSync(notZip, 'sourcedId,title\r\n');
    const result = run('infra/cli/import.ts', notZip, '--format', 'oneroster');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a zip');
  });

  it('refuses a zip whose CSV is not UTF-8 text, with exit status 2, before it writes anything', async () => {
    const orgs = `sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\r\n${randomUUID()},active,2026-11-01T00:00:00Z,Escola Básica de São João,school,EBSJ,\r\n`;
    const zip = join(dir, 'latin1.zip');
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(manifestOf({ orgs: 'bulk' })),
        'orgs.csv': new Uint8Array(Buffer.from(orgs, 'latin1')),
      }),
    );
    const before = await api.get('/api/system').then((r) => r.json());
    const result = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('orgs.csv is not UTF-8 text');
    expect(await api.get('/api/system').then((r) => r.json())).toMatchObject({
      counts: (before as { counts: object }).counts,
    });
  });
});
