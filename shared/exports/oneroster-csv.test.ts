// The OneRoster zip from a small snapshot written as an export run writes it: required columns filled
// (a one-word name, a person without an account), rows whose references would dangle left out, empty
// tables absent, and the heavy fields of people never kept while reading.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { strToU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOneRosterZip } from '../../test/support/oneroster-zip';
import { recordGroups } from '../domain/groups';
import { fileNames } from './manifest';
import {
  bulkRows,
  byTable,
  firstRoleOf,
  indexRoster,
  oneRosterHeaders,
  oneRosterZip,
  rosterTables,
  tableCsv,
} from './oneroster-csv';
import { storeSource } from './roster-source';
import { type ExportStore, FolderStore } from './store';

const dir = mkdtempSync(join(tmpdir(), 'school-oneroster-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = '2026-09-01T00:00:00.000Z';
const stamps = { created_at: at, updated_at: at };
const lists = { addresses: [], contacts: [], documents: [], bankAccounts: [] };
const id = () => randomUUID();

function person(name: string, role: 'student' | 'teacher', roleId = id()) {
  const entity = { entity_id: id(), entity_type: 'person', name, email: `${roleId}@example.org`, ...lists };
  const record = {
    [`${role}_id`]: roleId,
    processnumber: roleId.slice(0, 8),
    ative: true,
    email: entity.email,
    name,
    gender: 'Female',
    photobase64: 'A'.repeat(4096),
    birth_date: '2012-03-04',
    naturality: 'Porto',
    nationality: 'PT',
    marital_status: '',
    deceased: false,
    ...lists,
    documents: [
      {
        init_date: '2020-01-01',
        end_date: '2030-01-01',
        identification_document_value: '1',
        identification_document_type_name: 'CC',
      },
    ],
    entity_id: entity.entity_id,
    ...stamps,
  };
  return { entity: { ...entity, roles: [{ role, id: roleId }], ...stamps }, record };
}

/** Writes a run's NDJSON files for the groups given; the others are empty. */
function snapshot(name: string, groups: Partial<Record<(typeof recordGroups)[number], object[]>>) {
  mkdirSync(join(dir, name));
  const store = new FolderStore(join(dir, name));
  for (const group of recordGroups) {
    const lines = (groups[group] ?? []).map((r) => `${JSON.stringify(r)}\n`).join('');
    writeFileSync(join(dir, name, fileNames.ndjson(group)), gzipSync(lines));
  }
  return store;
}

/** The bulk zip of a snapshot, as an export run writes it: its bytes, and each table's row count. */
async function buildOneRosterZip(
  store: ExportStore,
  source: { systemName: string; systemCode: string },
  usernames: ReadonlyMap<string, string>,
) {
  const read = storeSource(store);
  const made = oneRosterZip(bulkRows(rosterTables(await indexRoster(read, usernames), read)), source, 'bulk');
  const chunks: Uint8Array[] = [];
  for await (const chunk of made.chunks) chunks.push(chunk);
  return { zip: new Uint8Array(Buffer.concat(chunks)), tables: made.tables };
}

describe('the OneRoster zip', () => {
  const district = {
    entity_id: id(),
    entity_type: 'organisation',
    name: 'Agrupamento',
    email: 'a@example.org',
  };
  const org = { ...district, ...lists, roles: [], org_type: 'district', parent_id: null, ...stamps };
  const school = { ...org, entity_id: id(), name: 'Escola', org_type: 'school', parent_id: org.entity_id };
  const year = {
    academic_session_id: id(),
    title: '2026/27',
    type: 'school_year',
    start_date: '2026-09-01',
    end_date: '2027-07-31',
    parent_id: null,
    school_year: '2027',
    ...stamps,
  };
  const course = {
    course_id: id(),
    title: 'Matemática',
    course_code: 'MAT',
    grades: ['07'],
    subjects: ['Matemática'],
    org_id: org.entity_id,
    ...stamps,
  };
  const orphanCourse = { ...course, course_id: id(), org_id: id() };
  const cls = {
    class_id: id(),
    title: '7.º A Matemática',
    class_code: '7A-MAT',
    class_type: 'scheduled',
    course_id: course.course_id,
    school_id: school.entity_id,
    term_ids: [year.academic_session_id, id()],
    periods: ['1'],
    location: '',
    ...stamps,
  };
  const classOfOrphan = { ...cls, class_id: id(), course_id: orphanCourse.course_id };
  const classWithoutTerms = { ...cls, class_id: id(), term_ids: [id()] };
  const ana = person('Ana', 'student');
  const rui = person('Rui Costa Silva', 'teacher');
  // Inactive: the REST binding and the zip both say enabledUser false.
  rui.record.ative = false;
  const roleless = { ...ana.entity, entity_id: id(), name: 'Sem Papel', roles: [] };
  const enrollment = (classId: string, entityId: string, role = 'student') => ({
    enrollment_id: id(),
    class_id: classId,
    entity_id: entityId,
    role,
    primary: false,
    begin_date: null,
    end_date: null,
    ...stamps,
  });
  const kept = [
    enrollment(cls.class_id, ana.entity.entity_id),
    enrollment(cls.class_id, rui.entity.entity_id, 'teacher'),
  ];
  const category = {
    category_id: id(),
    title: 'Testes',
    weight: 60,
    school_year_id: year.academic_session_id,
    ...stamps,
  };
  const scale = (classId: string | null) => ({
    score_scale_id: id(),
    title: 'Letras',
    type: 'letter',
    class_id: classId,
    minimum: null,
    maximum: null,
    values: ['A', 'B', 'C'],
    ...stamps,
  });
  const [classScale, tenantScale, orphanScale] = [
    scale(cls.class_id),
    scale(null),
    scale(classOfOrphan.class_id),
  ];
  const lineItem = (classId: string, scaleId: string | null) => ({
    line_item_id: id(),
    class_id: classId,
    title: 'Teste 1',
    description: '',
    category_id: category.category_id,
    score_scale_id: scaleId,
    result_value_min: 0,
    result_value_max: 20,
    grading_period_id: null,
    assign_date: '2026-10-01',
    due_date: '2026-10-08',
    released: true,
    ...stamps,
  });
  const items = [
    lineItem(cls.class_id, classScale.score_scale_id),
    lineItem(cls.class_id, tenantScale.score_scale_id),
    lineItem(classOfOrphan.class_id, orphanScale.score_scale_id),
  ];
  const result = (lineItemId: string, studentId: string, classId = cls.class_id) => ({
    result_id: id(),
    class_id: classId,
    line_item_id: lineItemId,
    student_id: studentId,
    status: 'fully graded',
    score: 17.5,
    text_score: 'B',
    score_date: '2026-10-09',
    comment: 'Bem, mas "pode" melhorar, sim.',
    ...stamps,
  });
  const anaRole = ana.entity.roles[0]?.id as string;
  const keptResult = result((items[0] as { line_item_id: string }).line_item_id, anaRole);
  const groups = {
    categories: [category],
    score_scales: [classScale, tenantScale, orphanScale],
    line_items: items,
    results: [
      keptResult,
      // Of a line item left out (its class is), and of a student who is no user of the zip.
      result((items[2] as { line_item_id: string }).line_item_id, anaRole, classOfOrphan.class_id),
      result((items[0] as { line_item_id: string }).line_item_id, id()),
    ],
    entities: [org, school, ana.entity, rui.entity, roleless],
    students: [ana.record],
    teachers: [rui.record],
    academic_sessions: [year],
    courses: [course, orphanCourse],
    classes: [cls, classOfOrphan, classWithoutTerms],
    enrollments: [
      ...kept,
      enrollment(classOfOrphan.class_id, ana.entity.entity_id),
      enrollment(classWithoutTerms.class_id, ana.entity.entity_id),
      enrollment(cls.class_id, roleless.entity_id),
    ],
  };

  it('fills every required column, and leaves out rows whose references would dangle', async () => {
    const store = snapshot('whole', groups);
    const usernames = new Map([[rui.entity.entity_id, 'rui.silva']]);
    const { zip, tables } = await buildOneRosterZip(
      store,
      { systemName: 'school-api', systemCode: 'demo' },
      usernames,
    );
    const { manifest, tables: rows, problems } = checkOneRosterZip(unzipSync(zip));
    expect(problems).toEqual([]);
    expect(manifest).toMatchObject({ 'source.systemName': 'school-api', 'source.systemCode': 'demo' });
    expect(tables).toEqual({
      orgs: 2,
      academicSessions: 1,
      courses: 1,
      classes: 1,
      users: 2,
      roles: 2,
      enrollments: 2,
      demographics: 2,
      categories: 1,
      scoreScales: 1,
      lineItems: 2,
      lineItemScoreScales: 1,
      results: 1,
    });
    expect(rows.classes?.[0]?.termSourcedIds).toBe(year.academic_session_id);
    expect(rows.enrollments?.map((e) => e.sourcedId).sort()).toEqual(kept.map((e) => e.enrollment_id).sort());
    const user = (entityId: string) => rows.users?.find((u) => u.sourcedId === entityId);
    // A one-word name is both given and family name; without an account the username is the e-mail.
    // Her role is at the school of the class she is enrolled in (the others are left out of the zip).
    expect(user(ana.entity.entity_id)).toMatchObject({
      givenName: 'Ana',
      familyName: 'Ana',
      username: ana.entity.email,
      primaryOrgSourcedId: school.entity_id,
    });
    expect(user(rui.entity.entity_id)).toMatchObject({
      givenName: 'Rui',
      familyName: 'Costa Silva',
      username: 'rui.silva',
      enabledUser: 'false',
    });
    expect(user(ana.entity.entity_id)?.enabledUser).toBe('true');
    expect(rows.roles?.every((r) => r.orgSourcedId === school.entity_id)).toBe(true);
  });

  it("writes the gradebook's tables: a class's own scale, named by its line items, and their results", async () => {
    const { zip } = await buildOneRosterZip(
      snapshot('gradebook', groups),
      { systemName: 's', systemCode: 'd' },
      new Map(),
    );
    const { tables: rows, problems } = checkOneRosterZip(unzipSync(zip));
    expect(problems).toEqual([]);
    expect(rows.categories).toEqual([
      { sourcedId: category.category_id, status: '', dateLastModified: '', title: 'Testes', weight: '60' },
    ]);
    // The tenant's scale names no class, so the binding has it not; nor the scale of a class left out.
    expect(rows.scoreScales).toEqual([
      expect.objectContaining({
        sourcedId: classScale.score_scale_id,
        type: 'letter',
        orgSourcedId: school.entity_id,
        courseSourcedId: course.course_id,
        classSourcedId: cls.class_id,
        scoreScaleValue: '{A:A},{B:B},{C:C}',
      }),
    ]);
    // Without a grading period, a line item's session is its class's first term of the zip.
    expect(
      rows.lineItems?.map((r) => [r.sourcedId, r.academicSessionSourcedId, r.assignDate, r.resultValueMax]),
    ).toEqual(items.slice(0, 2).map((i) => [i.line_item_id, year.academic_session_id, '2026-10-01', '20']));
    expect(rows.lineItemScoreScales).toEqual([
      expect.objectContaining({
        lineItemSourcedId: items[0]?.line_item_id,
        scoreScaleSourcedId: classScale.score_scale_id,
      }),
    ]);
    // A result names its student by their user; the comment's quotes and commas survive the CSV.
    expect(rows.results).toEqual([
      expect.objectContaining({
        sourcedId: keptResult.result_id,
        studentSourcedId: ana.entity.entity_id,
        scoreStatus: 'fully graded',
        score: '17.5',
        textScore: 'B',
        scoreDate: '2026-10-09',
        comment: keptResult.comment,
        classSourcedId: cls.class_id,
      }),
    ]);
  });

  it('marks a table without rows absent in manifest.csv and leaves its file out', async () => {
    const store = snapshot('no-enrollments', { ...groups, enrollments: [] });
    const { zip, tables } = await buildOneRosterZip(
      store,
      { systemName: 'school-api', systemCode: 'demo' },
      new Map(),
    );
    const files = unzipSync(zip);
    const { manifest, problems } = checkOneRosterZip(files);
    expect(problems).toEqual([]);
    expect(tables.enrollments).toBe(0);
    expect(manifest['file.enrollments']).toBe('absent');
    expect(manifest['file.users']).toBe('bulk');
    expect(files['enrollments.csv']).toBeUndefined();
  });

  it("keeps of people only ids and their first role's few fields, and of organisations no list", async () => {
    const index = await indexRoster(storeSource(snapshot('slim', groups)), new Map());
    expect(firstRoleOf(index.users.get(ana.entity.entity_id))).toEqual({
      processnumber: ana.record.processnumber,
      birth_date: '2012-03-04',
      gender: 'Female',
      naturality: 'Porto',
      updated_at: at,
    });
    expect(index.organisations.every((e) => e.documents.length === 0)).toBe(true);
    expect([...index.users.keys()]).not.toContain(roleless.entity_id);
  });

  it('keeps one enrollment list for all the users enrolled with the same roles at the same schools', async () => {
    const bea = person('Bea', 'student');
    const otherClass = { ...cls, class_id: id() };
    const store = snapshot('shared-lists', {
      ...groups,
      entities: [...groups.entities, bea.entity],
      students: [ana.record, bea.record],
      classes: [...groups.classes, otherClass],
      enrollments: [
        ...kept,
        enrollment(cls.class_id, bea.entity.entity_id),
        enrollment(otherClass.class_id, bea.entity.entity_id),
      ],
    });
    const index = await indexRoster(storeSource(store), new Map());
    const listOf = (p: { entity: { entity_id: string } }) => index.users.get(p.entity.entity_id)?.enrolled;
    expect(listOf(ana)).toEqual([{ role: 'student', classId: school.entity_id }]);
    expect(listOf(bea)).toBe(listOf(ana));
    expect(listOf(rui)).toEqual([{ role: 'teacher', classId: school.entity_id }]);
  });

  it('compresses a table larger than one chunk into the zip as its rows come, byte for byte its CSV', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      Object.fromEntries(oneRosterHeaders.enrollments.map((h) => [h, `${h}-${i}`])),
    );
    const made = oneRosterZip(
      byTable(
        (table) =>
          async function* () {
            if (table === 'enrollments') yield* rows;
          },
      ),
      { systemName: 's', systemCode: 'd' },
      'bulk',
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of made.chunks) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(files).sort()).toEqual(['enrollments.csv', 'manifest.csv']);
    expect(files['enrollments.csv']).toEqual(strToU8(tableCsv('enrollments', rows)));
    expect(made.tables.enrollments).toBe(3000);
    expect(made.tables.users).toBe(0);
  });
});
