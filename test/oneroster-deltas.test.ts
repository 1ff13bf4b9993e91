// Deletions as a OneRoster consumer that syncs by delta reads them (docs/oneroster.md, "Deletions"): a
// `dateLastModified>` read answers every object deleted since, `status: tobedeleted`, on every
// collection, each valid against 1EdTech's published schemas; a read without it tells of none. Over HTTP
// against DynamoDB Local, with records made and deleted through the native API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationBody, personBody } from './support/fixtures';
import { bindingSchema, schemaOfKey } from './support/oneroster-binding';
import { createRecord, removeRecord, startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/rostering/v1p2';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Obj = { sourcedId: string; status: string; dateLastModified: string } & Row;

const create = (group: string, body: Row) => createRecord(api, group, body);
const remove = (group: string, id: unknown) => removeRecord(api, group, id);

/** The objects of a 200 list answer, checked against the binding's schema. */
async function listed(response: Response, path: string): Promise<Obj[]> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const body = JSON.parse(text) as Record<string, Obj[]>;
  const [key] = Object.keys(body) as [string];
  const validate = bindingSchema(schemaOfKey[key] as string);
  expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  return body[key] as Obj[];
}

/** Every object of a collection's delta read since `since`, checked against the binding's schema. */
async function delta(path: string, since: string): Promise<Obj[]> {
  const filter = encodeURIComponent(`dateLastModified>'${since}'`);
  const response = await api.get(`${BASE}${path}?limit=1000&filter=${filter}`);
  const objects = await listed(response, path);
  expect(Number(response.headers.get('x-total-count'))).toBe(objects.length);
  return objects;
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
    // The student left the class and the school: their students say so, their teachers do not.
    for (const path of [
      `/classes/${String(cls.class_id)}/students`,
      `/schools/${String(school.entity_id)}/students`,
    ]) {
      expect(find(await delta(path, since), student.entity_id), path).toMatchObject({
        status: 'tobedeleted',
        roles: [{ role: 'student' }],
      });
      expect(
        find(await delta(path.replace('/students', '/teachers'), since), student.entity_id),
      ).toBeUndefined();
    }

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
      ['/demographics', student.entity_id],
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

  it("tells of a user whose enabledUser changed when a role record's ative did, and moves the entity's change time", async () => {
    const student = await create('students', personBody('S'));
    const entityBefore = (await (await api.get(`/api/entities/${student.entity_id}`)).json()) as Row;
    await waitForSyncLag();
    const since = new Date().toISOString();
    const { student_id: id, entity_id: _e, created_at: _c, updated_at: _u, ...body } = student;
    const replaced = await api.send('PUT', `/api/students/${id}`, { ...body, ative: false });
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    await waitForSyncLag();
    for (const path of ['/users', '/students']) {
      const user = find(await delta(path, since), student.entity_id);
      expect(user, path).toMatchObject({ status: 'active', enabledUser: 'false' });
      expect((user as Obj).dateLastModified > since, path).toBe(true);
    }
    const entityAfter = (await (await api.get(`/api/entities/${student.entity_id}`)).json()) as Row;
    expect((entityAfter.updated_at as string) > (entityBefore.updated_at as string)).toBe(true);
    // A replace that leaves ative as it was does not move the entity.
    const again = await api.send('PUT', `/api/students/${id}`, { ...body, ative: false });
    expect(again.status).toBe(200);
    const unchanged = (await (await api.get(`/api/entities/${student.entity_id}`)).json()) as Row;
    expect(unchanged.updated_at).toBe(entityAfter.updated_at);
  });
});

/** The Link header's addresses, by relation. */
function linksOf(response: Response): Record<string, string> {
  const header = response.headers.get('link') ?? '';
  return Object.fromEntries(
    [...header.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map(([, url, rel]) => [rel as string, url as string]),
  );
}

/**
 * Every object of a delta read by following its next links from the first page of `limit`, each page
 * checked against the binding's schema: the first page counts the walk (it is small), a page the walk
 * goes on from after it has a next link and no total (nor last link), and the last page has the total.
 */
async function walk(path: string, since: string, limit: number): Promise<Obj[]> {
  const filter = encodeURIComponent(`dateLastModified>'${since}'`);
  const seen: Obj[] = [];
  const totals: (string | null)[] = [];
  let next: string | undefined = `${api.url}${BASE}${path}?limit=${limit}&filter=${filter}`;
  while (next) {
    const response = await api.get(next.slice(api.url.length));
    const continued = new URL(next).searchParams.has('after');
    seen.push(...(await listed(response, path)));
    const links = linksOf(response);
    if (links.next) {
      expect(new URL(links.next).searchParams.get('after'), path).toMatch(/^\d{4}-.+Z#[0-9a-f-]{36}$/);
      if (continued) expect(links.last, path).toBeUndefined();
    }
    totals.push(response.headers.get('x-total-count'));
    next = links.next;
  }
  expect(totals[0], path).toBe(String(seen.length));
  expect(totals.at(-1), path).toBe(String(seen.length));
  expect(
    totals.slice(1, -1).every((t) => t === null),
    path,
  ).toBe(true);
  return seen;
}

/** The same delta read whole, sorted by sourcedId: every object once, from the whole-group read. */
async function wholeDelta(path: string, since: string): Promise<Obj[]> {
  const filter = encodeURIComponent(`dateLastModified>'${since}'`);
  const response = await api.get(`${BASE}${path}?limit=1000&sort=sourcedId&filter=${filter}`);
  expect(response.status).toBe(200);
  return Object.values((await response.json()) as Record<string, Obj[]>)[0] as Obj[];
}

const statusById = (objects: Obj[]) => new Map(objects.map((o) => [o.sourcedId, o.status]));

describe('a delta walk (docs/oneroster.md, "What each request reads")', () => {
  const people: Row[] = [];
  let since = '';

  beforeAll(async () => {
    since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const listed = (await (await api.get('/api/classes?items_per_page=1')).json()) as { classes: Row[] };
    const cls = listed.classes[0] as Row;
    for (let i = 0; i < 5; i += 1) people.push(await create('students', personBody(`W${i}`)));
    const enrollments: Row[] = [];
    for (const student of people.slice(0, 4)) {
      enrollments.push(
        await create('enrollments', {
          class_id: cls.class_id,
          entity_id: student.entity_id,
          role: 'student',
          primary: false,
          begin_date: null,
          end_date: null,
        }),
      );
    }
    await remove('enrollments', enrollments[0]?.enrollment_id);
    await remove('students', people[4]?.student_id);
    const courses: Row[] = [];
    for (const code of ['W1', 'W2', 'W3']) {
      courses.push(
        await create('courses', {
          title: `Oficina ${code}`,
          course_code: code,
          grades: ['07'],
          subjects: ['Artes'],
          org_id: cls.school_id,
        }),
      );
    }
    const walkClasses: Row[] = [];
    for (const code of ['W1-A', 'W1-B', 'W1-C']) {
      walkClasses.push(
        await create('classes', {
          title: `Oficina ${code}`,
          class_code: code,
          class_type: 'scheduled',
          course_id: courses[0]?.course_id,
          school_id: cls.school_id,
          term_ids: cls.term_ids,
          periods: ['3'],
          location: 'Sala 3',
        }),
      );
    }
    await remove('classes', walkClasses[1]?.class_id);
    await remove('courses', courses[2]?.course_id);
    await waitForSyncLag();
  });

  it('walks the changes and deletions a page at a time, in change order, to what the whole read answers', async () => {
    for (const path of ['/users', '/students', '/enrollments', '/demographics', '/classes', '/courses']) {
      const walked = await walk(path, since, 2);
      const times = walked.map((o) => Date.parse(o.dateLastModified));
      expect(times, path).toEqual([...times].sort((a, b) => a - b));
      expect(statusById(walked), path).toEqual(statusById(await wholeDelta(path, since)));
      expect(walked.length, path).toBeGreaterThan(2);
    }
    const students = statusById(await walk('/students', since, 3));
    expect(students.get(String(people[4]?.entity_id))).toBe('tobedeleted');
    for (const person of people.slice(0, 4)) expect(students.get(String(person.entity_id))).toBe('active');
    const enrollments = await walk('/enrollments', since, 1);
    expect(deletedIn(enrollments)).toHaveLength(1);
    expect(enrollments.filter((e) => e.status === 'active')).toHaveLength(3);
    for (const path of ['/classes', '/courses']) {
      const walked = await walk(path, since, 1);
      expect(deletedIn(walked), path).toHaveLength(1);
      expect(
        walked.filter((o) => o.status === 'active'),
        path,
      ).toHaveLength(2);
    }
  });

  it('applies the rest of the filter on the way, and skips an offset given without after', async () => {
    const named = people[2] as Row;
    const filter = encodeURIComponent(
      `dateLastModified>'${since}' AND sourcedId='${String(named.entity_id)}'`,
    );
    const found = await api.get(`${BASE}/students?limit=1&filter=${filter}`);
    const { users } = (await found.json()) as { users: Obj[] };
    expect(users.map((u) => u.sourcedId)).toEqual([named.entity_id]);
    expect(found.headers.get('x-total-count')).toBe('1');

    const walked = await walk('/students', since, 100);
    const plain = encodeURIComponent(`dateLastModified>'${since}'`);
    const skipped = await api.get(`${BASE}/students?limit=2&offset=2&filter=${plain}`);
    const page = ((await skipped.json()) as { users: Obj[] }).users;
    expect(page.map((u) => u.sourcedId)).toEqual(walked.slice(2, 4).map((u) => u.sourcedId));
  });

  it('refuses an after that is no position, and reads from the window at one outside it', async () => {
    const filter = encodeURIComponent(`dateLastModified>'${since}'`);
    for (const after of [
      'x',
      String(people[0]?.entity_id),
      `2026-13-45T00:00:00Z#${String(people[0]?.entity_id)}`,
    ]) {
      const response = await api.get(`${BASE}/users?filter=${filter}&after=${encodeURIComponent(after)}`);
      expect(response.status, after).toBe(400);
      expect(await response.json()).toMatchObject({
        imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldValue: 'invaliddata' }] },
      });
    }
    const id = '00000000-0000-4000-8000-000000000000';
    const early = await api.get(
      `${BASE}/users?limit=1&filter=${filter}&after=${encodeURIComponent(`2000-01-01T00:00:00Z#${id}`)}`,
    );
    const first = await api.get(`${BASE}/users?limit=1&filter=${filter}`);
    expect(((await early.json()) as { users: Obj[] }).users).toEqual(
      ((await first.json()) as { users: Obj[] }).users,
    );
    const late = await api.get(
      `${BASE}/users?filter=${filter}&after=${encodeURIComponent(`2999-01-01T00:00:00Z#${id}`)}`,
    );
    expect(late.status).toBe(200);
    expect(((await late.json()) as { users: Obj[] }).users).toEqual([]);
  });
});
