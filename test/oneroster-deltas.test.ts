// Deletions as a OneRoster consumer that syncs by delta reads them (docs/oneroster.md, "Deletions"): a
// `dateLastModified>` read answers every object deleted since, `status: tobedeleted`, on every
// collection, each valid against 1EdTech's published schemas; a read without it tells of none. Over HTTP
// against DynamoDB Local, with records made and deleted through the native API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationBody, personBody } from './support/fixtures';
import { bindingSchema, schemaOfKey } from './support/oneroster-binding';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/rostering/v1p2';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Obj = { sourcedId: string; status: string; dateLastModified: string } & Row;

async function create(group: string, body: Row): Promise<Row> {
  const response = await api.send('POST', `/api/${group}`, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Row;
}

async function remove(group: string, id: unknown) {
  const response = await api.send('DELETE', `/api/${group}/${String(id)}`);
  expect(response.status, await response.clone().text()).toBe(204);
}

/** Every object of a collection's delta read since `since`, checked against the binding's schema. */
async function delta(path: string, since: string): Promise<Obj[]> {
  const filter = encodeURIComponent(`dateLastModified>'${since}'`);
  const response = await api.get(`${BASE}${path}?limit=1000&filter=${filter}`);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as Record<string, Obj[]>;
  const [key] = Object.keys(body) as [string];
  const validate = bindingSchema(schemaOfKey[key] as string);
  expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  expect(Number(response.headers.get('x-total-count'))).toBe(body[key]?.length);
  return body[key] as Obj[];
}

const deletedIn = (objects: Obj[]) => objects.filter((o) => o.status === 'tobedeleted');
const find = (objects: Obj[], id: unknown) => objects.find((o) => o.sourcedId === id);

describe('a dateLastModified> read', () => {
  it('tells of every object deleted since as tobedeleted, on every collection, and a plain read of none', async () => {
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const org = (fields: Row) => create('entities', { ...organisationBody(), ...fields });
    const district = await org({ org_type: 'district', parent_id: null });
    const school = await org({ org_type: 'school', parent_id: district.entity_id });
    const session = (fields: Row) =>
      create('academic_sessions', {
        title: 'Período',
        start_date: '2026-09-14',
        end_date: '2027-06-30',
        school_year: '2027',
        ...fields,
      });
    const year = await session({ type: 'school_year' });
    const term = await session({ type: 'term', parent_id: year.academic_session_id, end_date: '2026-12-18' });
    const course = await create('courses', {
      title: 'Matemática 7.º ano',
      course_code: 'MAT7',
      grades: ['07'],
      subjects: ['Matemática'],
      org_id: school.entity_id,
    });
    const cls = await create('classes', {
      title: 'Matemática 7.º A',
      class_code: 'MAT7-A',
      class_type: 'scheduled',
      course_id: course.course_id,
      school_id: school.entity_id,
      term_ids: [term.academic_session_id],
      periods: ['2'],
      location: 'Sala 12',
    });
    const student = await create('students', personBody());
    const enrollment = await create('enrollments', {
      class_id: cls.class_id,
      entity_id: student.entity_id,
      role: 'student',
      primary: true,
      begin_date: null,
      end_date: null,
    });

    await remove('enrollments', enrollment.enrollment_id);
    await waitForSyncLag();
    const ended = find(await delta('/enrollments', since), enrollment.enrollment_id);
    expect(ended).toMatchObject({
      status: 'tobedeleted',
      user: { sourcedId: student.entity_id },
      class: { sourcedId: cls.class_id },
      school: { sourcedId: school.entity_id },
      role: 'student',
    });
    expect(
      find(await delta(`/schools/${String(school.entity_id)}/enrollments`, since), enrollment.enrollment_id),
    ).toMatchObject({ status: 'tobedeleted' });

    await remove('classes', cls.class_id);
    await waitForSyncLag();
    for (const path of [
      `/courses/${String(course.course_id)}/classes`,
      `/terms/${String(term.academic_session_id)}/classes`,
      `/schools/${String(school.entity_id)}/classes`,
    ]) {
      expect(find(await delta(path, since), cls.class_id), path).toMatchObject({ status: 'tobedeleted' });
    }
    await remove('courses', course.course_id);
    await remove('academic_sessions', term.academic_session_id);
    await remove('students', student.student_id);
    await remove('entities', student.entity_id);
    await remove('entities', school.entity_id);
    await waitForSyncLag();

    const expectations: [string, unknown][] = [
      ['/classes', cls.class_id],
      ['/courses', course.course_id],
      ['/academicSessions', term.academic_session_id],
      ['/terms', term.academic_session_id],
      ['/orgs', school.entity_id],
      ['/schools', school.entity_id],
      ['/users', student.entity_id],
      ['/students', student.entity_id],
    ];
    for (const [path, id] of expectations) {
      const answer = await delta(path, since);
      const gone = find(answer, id);
      expect(gone, path).toMatchObject({ status: 'tobedeleted' });
      expect(Date.parse(gone?.dateLastModified ?? '') > Date.parse(since), path).toBe(true);
    }
    expect(find(await delta('/classes', since), cls.class_id)).toMatchObject({
      school: { sourcedId: school.entity_id },
      course: { sourcedId: course.course_id },
      terms: [{ sourcedId: term.academic_session_id }],
    });
    expect(find(await delta('/students', since), student.entity_id)).toMatchObject({
      givenName: '',
      familyName: '',
      roles: [{ role: 'student' }],
    });
    // A deleted person is no teacher, a deleted school no term: a collection tells only of its own.
    expect(find(await delta('/teachers', since), student.entity_id)).toBeUndefined();
    expect(find(await delta('/terms', since), school.entity_id)).toBeUndefined();
    expect(find(await delta('/orgs', since), district.entity_id)).toMatchObject({ status: 'active' });

    for (const path of ['/users', '/orgs', '/classes', '/courses', '/academicSessions', '/enrollments']) {
      const response = await api.get(`${BASE}${path}?limit=1000`);
      const body = (await response.json()) as Record<string, Obj[]>;
      expect(deletedIn(Object.values(body)[0] as Obj[]), path).toEqual([]);
    }
  });

  it('tells of nothing deleted after a time later than the sync lag, nor of what was deleted before it', async () => {
    const org = await create('entities', organisationBody());
    await remove('entities', org.entity_id);
    await waitForSyncLag();
    const after = new Date().toISOString();
    expect(find(await delta('/orgs', after), org.entity_id)).toBeUndefined();
  });
});
