// The rostering groups over HTTP (issue "Rostering", deliverable 1): academic sessions, courses, classes
// and enrollments with the conventions of every group (contract.md sections 2 to 5), the organisation
// tree, and the integrity of what they name, kept in the transactions that write them.
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../shared/data/keys';
import { internal } from '../shared/data/record-items';
import { LIMITS } from '../shared/domain/limits';
import { recordSchemas } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { organisationBody, personBody } from './support/fixtures';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const create = async (group: string, body: Row): Promise<Row> => {
  const record = await json<Row>(await api.send('POST', `/api/${group}`, body), 201);
  const schema = recordSchemas[group as keyof typeof recordSchemas];
  expect(schema.safeParse(record).error).toBeUndefined();
  return record;
};

const organisation = (fields: Row = {}) => create('entities', { ...organisationBody(), ...fields });
const person = async () => (await create('students', personBody())).entity_id as string;

/** A school under a district, its school year with one term, and a course: what a class needs. */
async function schoolYear() {
  const district = await organisation({ org_type: 'district', parent_id: null });
  const school = await organisation({ org_type: 'school', parent_id: district.entity_id });
  const year = await create('academic_sessions', {
    title: 'Ano letivo 2026/27',
    type: 'school_year',
    start_date: '2026-09-14',
    end_date: '2027-06-30',
    school_year: '2027',
  });
  const term = await create('academic_sessions', {
    title: '1.º período',
    type: 'term',
    start_date: '2026-09-14',
    end_date: '2026-12-18',
    parent_id: year.academic_session_id,
    school_year: '2027',
  });
  const course = await create('courses', {
    title: 'Matemática 7.º ano',
    course_code: 'MAT7',
    grades: ['07'],
    subjects: ['Matemática'],
    org_id: district.entity_id,
  });
  return { district, school, year, term, course };
}

const classBody = (fixture: Awaited<ReturnType<typeof schoolYear>>, fields: Row = {}) => ({
  title: 'Matemática 7.º A',
  class_code: 'MAT7-A',
  class_type: 'scheduled',
  course_id: fixture.course.course_id,
  school_id: fixture.school.entity_id,
  term_ids: [fixture.term.academic_session_id],
  periods: ['2', '5'],
  location: 'Sala 12',
  ...fields,
});

describe('organisations', () => {
  it('form a tree: a school names its district, with their types', async () => {
    const { district, school } = await schoolYear();
    expect(district).toMatchObject({ org_type: 'district', parent_id: null });
    expect(school).toMatchObject({ org_type: 'school', parent_id: district.entity_id });
  });

  it('refuse a parent that is missing, a person, the organisation itself or one below it, with 400', async () => {
    const missing = await api.send('POST', '/api/entities', {
      ...organisationBody(),
      parent_id: '00000000-0000-4000-8000-000000000000',
    });
    expect((await expectProblem(missing, 400)).errors).toEqual([
      expect.objectContaining({ name: 'parent_id' }),
    ]);
    const personParent = await api.send('POST', '/api/entities', {
      ...organisationBody(),
      parent_id: await person(),
    });
    await expectProblem(personParent, 400);
    const school = await organisation({ org_type: 'school' });
    const itself = await api.send('PUT', `/api/entities/${school.entity_id}`, {
      ...organisationBody(),
      parent_id: school.entity_id,
    });
    await expectProblem(itself, 400);
    const { district, school: under } = await schoolYear();
    const loop = await api.send('PUT', `/api/entities/${district.entity_id}`, {
      ...organisationBody(),
      org_type: 'district',
      parent_id: under.entity_id,
    });
    expect((await expectProblem(loop, 400)).errors).toEqual([expect.objectContaining({ name: 'parent_id' })]);
    const personWithType = await api.send('POST', '/api/entities', {
      ...organisationBody(),
      entity_type: 'person',
      org_type: 'school',
    });
    expect((await expectProblem(personWithType, 400)).errors).toEqual([
      expect.objectContaining({ name: 'org_type' }),
    ]);
  });

  it('are not deleted while a school, course or class names them (409), and are once none does', async () => {
    const { district, school } = await schoolYear();
    await expectProblem(await api.send('DELETE', `/api/entities/${district.entity_id}`), 409);
    await expectProblem(
      await api.send('PUT', `/api/entities/${district.entity_id}`, {
        ...organisationBody(),
        entity_type: 'person',
      }),
      409,
    );
    const lone = await organisation({ org_type: 'school', parent_id: district.entity_id });
    expect((await api.send('DELETE', `/api/entities/${lone.entity_id}`)).status).toBe(204);
    expect((await api.send('DELETE', `/api/entities/${school.entity_id}`)).status).toBe(204);
  });
});

describe('academic sessions, courses and classes', () => {
  it('create, read, replace and delete with the conventions of every group', async () => {
    const fixture = await schoolYear();
    const created = await create('classes', classBody(fixture));
    const path = `/api/classes/${created.class_id}`;
    const read = await api.get(path);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(await json(read)).toEqual(created);
    const replaced = await api.send('PUT', path, classBody(fixture, { location: 'Sala 14' }), {
      headers: { 'if-match': '"1"' },
    });
    expect(await json<Row>(replaced)).toMatchObject({ location: 'Sala 14', created_at: created.created_at });
    expect(replaced.headers.get('etag')).toBe('"2"');
    await expectProblem(
      await api.send('PUT', path, classBody(fixture), { headers: { 'if-match': '"1"' } }),
      412,
    );
    expect((await api.send('DELETE', path)).status).toBe(204);
    await expectProblem(await api.get(path), 410);
    await waitForSyncLag();
    const deleted = await json<{ deleted: Row[] }>(
      await api.get(`/api/classes/deleted?since=${encodeURIComponent(created.created_at as string)}`),
    );
    expect(deleted.deleted.map((d) => d.class_id)).toContain(created.class_id);
  });

  it('refuse bad input with a 400 problem naming each field, and write nothing', async () => {
    const before = (await json<{ counts: Row }>(await api.get('/api/system'))).counts;
    const session = await api.send('POST', '/api/academic_sessions', {
      title: '',
      type: 'trimester',
      start_date: '2027-01-01',
      end_date: '2026-01-01',
      school_year: '26/27',
    });
    const names = ((await expectProblem(session, 400)).errors as Row[]).map((e) => e.name).sort();
    expect(names).toEqual(['school_year', 'title', 'type']);
    const backwards = await api.send('POST', '/api/academic_sessions', {
      title: 'Ao contrário',
      type: 'term',
      start_date: '2027-01-01',
      end_date: '2026-01-01',
      school_year: '2027',
    });
    expect(((await expectProblem(backwards, 400)).errors as Row[]).map((e) => e.name)).toEqual([
      'start_date',
    ]);
    const course = await api.send('POST', '/api/courses', { title: 'Sem escola', org_id: 'not-a-uuid' });
    expect(((await expectProblem(course, 400)).errors as Row[]).map((e) => e.name)).toEqual(['org_id']);
    const fixture = await schoolYear();
    const noTerms = await api.send('POST', '/api/classes', classBody(fixture, { term_ids: [] }));
    expect(((await expectProblem(noTerms, 400)).errors as Row[]).map((e) => e.name)).toEqual(['term_ids']);
    const after = (await json<{ counts: Row }>(await api.get('/api/system'))).counts;
    expect(after.academic_sessions).toBe((before.academic_sessions as number) + 2);
    expect(after.classes).toBe(before.classes);
  });

  it('refuse references to records that do not exist, or of the wrong kind (400)', async () => {
    const fixture = await schoolYear();
    const nobody = '00000000-0000-4000-8000-000000000000';
    for (const [field, value] of [
      ['course_id', nobody],
      ['school_id', nobody],
      ['school_id', await person()],
      ['term_ids', [nobody]],
    ] as const) {
      const response = await api.send('POST', '/api/classes', classBody(fixture, { [field]: value }));
      expect((await expectProblem(response, 400)).errors, field).toEqual([
        expect.objectContaining({ name: field }),
      ]);
    }
    const course = await api.send('POST', '/api/courses', {
      title: 'Órfão',
      org_id: nobody,
    });
    await expectProblem(course, 400);
  });

  it('keep a course, term or school named by a class (409) until the class moves or goes', async () => {
    const fixture = await schoolYear();
    const created = await create('classes', classBody(fixture));
    await expectProblem(await api.send('DELETE', `/api/courses/${fixture.course.course_id}`), 409);
    await expectProblem(
      await api.send('DELETE', `/api/academic_sessions/${fixture.term.academic_session_id}`),
      409,
    );
    await expectProblem(
      await api.send('DELETE', `/api/academic_sessions/${fixture.year.academic_session_id}`),
      409,
    );
    const other = await create('courses', { title: 'Português 7.º ano', org_id: fixture.school.entity_id });
    await json(
      await api.send(
        'PUT',
        `/api/classes/${created.class_id}`,
        classBody(fixture, { course_id: other.course_id }),
      ),
    );
    expect((await api.send('DELETE', `/api/courses/${fixture.course.course_id}`)).status).toBe(204);
    await expectProblem(await api.send('DELETE', `/api/courses/${other.course_id}`), 409);
    expect((await api.send('DELETE', `/api/classes/${created.class_id}`)).status).toBe(204);
    expect((await api.send('DELETE', `/api/courses/${other.course_id}`)).status).toBe(204);
    expect(
      (await api.send('DELETE', `/api/academic_sessions/${fixture.term.academic_session_id}`)).status,
    ).toBe(204);
  });
});

describe('enrollments', () => {
  async function enrolled() {
    const fixture = await schoolYear();
    const klass = await create('classes', classBody(fixture));
    const student = await person();
    const enrollment = await create('enrollments', {
      class_id: klass.class_id,
      entity_id: student,
      role: 'student',
      begin_date: '2026-09-14',
    });
    return { ...fixture, klass, student, enrollment };
  }

  it('need an existing class and a person (400), and take defaults', async () => {
    const { klass, student, enrollment, school } = await enrolled();
    expect(enrollment).toMatchObject({ primary: false, end_date: null, begin_date: '2026-09-14' });
    const nobody = '00000000-0000-4000-8000-000000000000';
    for (const body of [
      { class_id: nobody, entity_id: student, role: 'student' },
      { class_id: klass.class_id, entity_id: nobody, role: 'student' },
      { class_id: klass.class_id, entity_id: school.entity_id, role: 'teacher' },
    ]) {
      await expectProblem(await api.send('POST', '/api/enrollments', body), 400);
    }
    const badRole = await api.send('POST', '/api/enrollments', {
      class_id: klass.class_id,
      entity_id: student,
      role: 'guardian',
    });
    expect(((await expectProblem(badRole, 400)).errors as Row[]).map((e) => e.name)).toEqual(['role']);
  });

  it('keep their class, person and role on replace (409), and change the rest', async () => {
    const { klass, student, enrollment } = await enrolled();
    const path = `/api/enrollments/${enrollment.enrollment_id}`;
    const body = { class_id: klass.class_id, entity_id: student, role: 'student' };
    await expectProblem(await api.send('PUT', path, { ...body, role: 'teacher' }), 409);
    const replaced = await json<Row>(
      await api.send('PUT', path, { ...body, primary: true, end_date: '2027-06-30' }),
    );
    expect(replaced).toMatchObject({ primary: true, end_date: '2027-06-30', begin_date: null });
  });

  it('keep their class from being deleted (409) until they are deleted', async () => {
    const { klass, enrollment } = await enrolled();
    const refused = await expectProblem(await api.send('DELETE', `/api/classes/${klass.class_id}`), 409);
    expect(refused.detail).toMatch(/enrollments/);
    expect((await api.send('DELETE', `/api/enrollments/${enrollment.enrollment_id}`)).status).toBe(204);
    expect((await api.send('DELETE', `/api/classes/${klass.class_id}`)).status).toBe(204);
  });

  it('stop at the most one class may hold (409), writing nothing', async () => {
    const { klass, student } = await enrolled();
    const classKey = keys.record('classes', klass.class_id as string);
    // The class's list filled to the limit as DynamoDB holds it: entries of the shape it writes.
    const filler = Array.from(
      { length: LIMITS.enrollmentsPerRecord - 1 },
      (_, i) => `student#${randomUUID()}#${i.toString().padStart(8, '0')}`,
    );
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: classKey,
        UpdateExpression: 'ADD #e :filler',
        ExpressionAttributeNames: { '#e': internal.enrollments },
        ExpressionAttributeValues: { ':filler': new Set(filler) },
      }),
    );
    const before = await json<Row>(await api.send('GET', '/api/enrollments?items_per_page=1'));
    const refused = await expectProblem(
      await api.send('POST', '/api/enrollments', {
        class_id: klass.class_id,
        entity_id: await person(),
        role: 'student',
      }),
      409,
    );
    expect((refused.errors as Row[]).map((e) => e.name)).toEqual(['class_id']);
    expect(refused.detail).toMatch(`${LIMITS.enrollmentsPerRecord}`);
    const after = await json<Row>(await api.send('GET', '/api/enrollments?items_per_page=1'));
    expect(after.total_items).toBe(before.total_items);
    // Taking one out makes room again.
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: classKey,
        UpdateExpression: 'DELETE #e :one',
        ExpressionAttributeNames: { '#e': internal.enrollments },
        ExpressionAttributeValues: { ':one': new Set([filler[0]]) },
      }),
    );
    await create('enrollments', { class_id: klass.class_id, entity_id: student, role: 'aide' });
  });

  it("are read for a class and for a person by id, from the class's and the person's lists", async () => {
    const { klass, student, enrollment } = await enrolled();
    const teacher = await person();
    const teaching = await create('enrollments', {
      class_id: klass.class_id,
      entity_id: teacher,
      role: 'teacher',
      primary: true,
    });
    const ofClass = await api.records.enrollmentsOfClass(klass.class_id as string);
    expect(ofClass.map((e) => e.enrollment_id).sort()).toEqual(
      [enrollment.enrollment_id, teaching.enrollment_id].sort(),
    );
    const ofPerson = await api.records.enrollmentsOfPerson(student);
    expect(ofPerson).toEqual([enrollment]);
  });

  it('end with their person: deleting a person entity deletes every one of their enrollments', async () => {
    const fixture = await schoolYear();
    const entity = await create('entities', {
      ...organisationBody(),
      entity_type: 'person',
      name: 'Encarregada Sem Papéis',
    });
    // More than one transaction's worth, across classes, so the enrollments end in batches.
    const classes = await Promise.all(
      Array.from({ length: 3 }, (_, i) => create('classes', classBody(fixture, { class_code: `C${i}` }))),
    );
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const klass = classes[i % 3] as Row;
      const enrollment = await create('enrollments', {
        class_id: klass.class_id,
        entity_id: entity.entity_id,
        role: i % 2 ? 'aide' : 'proctor',
      });
      ids.push(enrollment.enrollment_id as string);
    }
    const before = (await json<{ counts: Row }>(await api.get('/api/system'))).counts;
    expect((await api.send('DELETE', `/api/entities/${entity.entity_id}`)).status).toBe(204);
    const after = (await json<{ counts: Row }>(await api.get('/api/system'))).counts;
    expect(after.enrollments).toBe((before.enrollments as number) - 24);
    for (const id of ids.slice(0, 3)) await expectProblem(await api.get(`/api/enrollments/${id}`), 410);
    for (const klass of classes) {
      expect(await api.records.enrollmentsOfClass(klass.class_id as string)).toEqual([]);
      expect((await api.send('DELETE', `/api/classes/${klass.class_id}`)).status).toBe(204);
    }
  });

  it('do not end with a person entity that still has roles (409)', async () => {
    const { student, enrollment } = await enrolled();
    await expectProblem(await api.send('DELETE', `/api/entities/${student}`), 409);
    expect((await api.get(`/api/enrollments/${enrollment.enrollment_id}`)).status).toBe(200);
  });
});

describe('the rostering lists', () => {
  it('page with cursors and total_items, each record once', async () => {
    const fixture = await schoolYear();
    for (let i = 0; i < 5; i++) await create('classes', classBody(fixture, { class_code: `P${i}` }));
    const first = await json<Row>(await api.get('/api/classes?items_per_page=2'));
    const total = first.total_items as number;
    expect(total).toBeGreaterThanOrEqual(5);
    const seen: string[] = [];
    let page: Row = first;
    for (;;) {
      seen.push(...(page.classes as Row[]).map((c) => c.class_id as string));
      if (!page.next_cursor) break;
      page = await json<Row>(await api.get(`/api/classes?cursor=${page.next_cursor}`));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort());
    await expectProblem(await api.get('/api/courses?items_per_page=501'), 400);
    await expectProblem(await api.get('/api/enrollments?cursor=bogus'), 400);
  });

  it('serve changes since a time', async () => {
    const since = new Date().toISOString();
    const fixture = await schoolYear();
    await waitForSyncLag();
    const changes = await json<Row>(await api.get(`/api/courses?updated_since=${encodeURIComponent(since)}`));
    expect((changes.courses as Row[]).map((c) => c.course_id)).toEqual([fixture.course.course_id]);
  });
});
