// The OneRoster 1.2 Rostering REST binding over real HTTP against DynamoDB Local: every response is
// validated with ajv against 1EdTech's published OpenAPI file for the binding (test/fixtures/oneroster/),
// and compared with the native API; paging headers, filters, sort, fields, imsx_StatusInfo errors and
// the binding's scopes (Rostering REST binding, sections 3.3, 3.4 and 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneRosterScopes } from '../shared/domain/groups';
import { routes } from '../shared/routes';
import type { Entity } from '../shared/schemas/records';
import { personBody } from './support/fixtures';
import { bindingSchema, schemaOfKey, validResponse } from './support/oneroster-binding';
import { rosterSamples } from './support/oneroster-samples';
import { startTestApi, TEST_SYNC_LAG_MS, type TestApi, waitForSyncLag } from './support/test-api';

const schema = bindingSchema;

const BASE = '/ims/oneroster/rostering/v1p2';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Obj = { sourcedId: string } & Record<string, unknown>;

/** Every record of a native group, by its cursor. */
async function native<T>(group: string): Promise<T[]> {
  const found: T[] = [];
  let cursor = '';
  for (;;) {
    const page = (await (await api.get(`/api/${group}?items_per_page=500${cursor}`)).json()) as Record<
      string,
      unknown
    >;
    found.push(...(page[group] as T[]));
    if (typeof page.next_cursor !== 'string') return found;
    cursor = `&cursor=${page.next_cursor}`;
  }
}

async function all(collection: string, key: string, query = ''): Promise<Obj[]> {
  const response = await api.get(
    `${BASE}/${collection}?${query.includes('limit=') ? '' : 'limit=1000'}${query}`,
  );
  const setSchemas: Record<string, string> = {
    orgs: 'OrgSetDType',
    users: 'UserSetDType',
    demographics: 'DemographicsSetDType',
    academicSessions: 'AcademicSessionSetDType',
    classes: 'ClassSetDType',
    courses: 'CourseSetDType',
    enrollments: 'EnrollmentSetDType',
  };
  const body = await validResponse(response, setSchemas[key] as string);
  const objects = body[key] as Obj[];
  if (!query.includes('limit=')) expect(Number(response.headers.get('x-total-count'))).toBe(objects.length);
  return objects;
}

async function nativeEntities(): Promise<Entity[]> {
  const response = await api.get('/api/entities?items_per_page=500');
  const body = (await response.json()) as { entities: Entity[]; total_items: number };
  expect(body.entities.length).toBe(body.total_items);
  return body.entities;
}

const linksOf = (response: Response) =>
  Object.fromEntries(
    (response.headers.get('link') ?? '').split(', ').map((link) => {
      const [, target, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(link) ?? [];
      return [rel, target];
    }),
  ) as Record<string, string | undefined>;

describe('collections and objects against the binding schemas', () => {
  it('users are the person entities with a role, students and teachers those with theirs, orgs the organisations', async () => {
    const entities = await nativeEntities();
    const persons = entities.filter((e) => e.entity_type === 'person' && e.roles.length > 0);
    const users = await all('users', 'users');
    expect(users.map((u) => u.sourcedId)).toEqual(persons.map((e) => e.entity_id).sort());
    const withRole = (role: string) => persons.filter((e) => e.roles.some((r) => r.role === role)).length;
    expect((await all('students', 'users')).length).toBe(withRole('student'));
    expect((await all('teachers', 'users')).length).toBe(withRole('teacher'));
    expect(withRole('student')).toBeGreaterThanOrEqual(120);
    const orgs = await all('orgs', 'orgs');
    expect(orgs.map((o) => o.sourcedId)).toEqual(
      entities
        .filter((e) => e.entity_type === 'organisation')
        .map((e) => e.entity_id)
        .sort(),
    );
    const demographics = await all('demographics', 'demographics');
    expect(demographics.map((d) => d.sourcedId)).toEqual(users.map((u) => u.sourcedId));
    await all('schools', 'orgs');
  });

  it('a user carries the entity name, e-mail and roles, and its native records as userIds', async () => {
    const entity = (await nativeEntities()).find(
      (e) => e.entity_type === 'person' && e.roles.length > 0,
    ) as Entity;
    const body = await validResponse(await api.get(`${BASE}/users/${entity.entity_id}`), 'SingleUserDType');
    const user = body.user as Record<string, unknown>;
    expect(`${user.givenName} ${user.familyName}`).toBe(entity.name);
    expect(user.email).toBe(entity.email);
    expect(user.dateLastModified).toBe(entity.updated_at);
    expect(user.userIds).toEqual(entity.roles.map((r) => ({ type: `${r.role}_id`, identifier: r.id })));
    const names = { student: 'student', teacher: 'teacher', tutor: 'guardian', staff: 'ext:staff' };
    expect((user.roles as { role: string }[]).map((r) => r.role)).toEqual(
      entity.roles.map((r) => names[r.role]),
    );
  });

  it('answers every single-object read, and a student read by a teacher path is unknown', async () => {
    const [student] = await all('students', 'users', '&limit=1');
    const [teacher] = await all('teachers', 'users', '&limit=1');
    const [org] = await all('orgs', 'orgs', '&limit=1');
    await validResponse(await api.get(`${BASE}/students/${student?.sourcedId}`), 'SingleUserDType');
    await validResponse(await api.get(`${BASE}/teachers/${teacher?.sourcedId}`), 'SingleUserDType');
    await validResponse(await api.get(`${BASE}/orgs/${org?.sourcedId}`), 'SingleOrgDType');
    const demographics = await validResponse(
      await api.get(`${BASE}/demographics/${student?.sourcedId}`),
      'SingleDemographicsDType',
    );
    expect((demographics.demographics as Obj).sourcedId).toBe(student?.sourcedId);
    const wrong = await validResponse(
      await api.get(`${BASE}/teachers/${student?.sourcedId}`),
      'imsx_StatusInfoDType',
      404,
    );
    expect(wrong.imsx_codeMajor).toBe('failure');
    const unknown = await validResponse(
      await api.get(`${BASE}/orgs/no-such-id`),
      'imsx_StatusInfoDType',
      404,
    );
    expect(JSON.stringify(unknown)).toContain('unknownobject');
  });
});

describe('mapping fidelity', () => {
  it("sets enabledUser from the person's role records, and maps every gender to the binding's sex", async () => {
    const inactive = await api.send('POST', '/api/students', {
      ...personBody(),
      ative: false,
      gender: 'Non-binary',
    });
    expect(inactive.status).toBe(201);
    const { entity_id } = (await inactive.json()) as { entity_id: string };
    const one = await validResponse(await api.get(`${BASE}/users/${entity_id}`), 'SingleUserDType');
    expect((one.user as Obj).enabledUser).toBe('false');
    const demographics = await validResponse(
      await api.get(`${BASE}/demographics/${entity_id}`),
      'SingleDemographicsDType',
    );
    expect((demographics.demographics as Obj).sex).toBe('other');
    const disabled = await all('users', 'users', `&filter=${encodeURIComponent("enabledUser='false'")}`);
    expect(disabled.map((u) => u.sourcedId)).toContain(entity_id);
    const paged = await all(
      'users',
      'users',
      `&filter=${encodeURIComponent(`email='${(one.user as Obj).email}'`)}`,
    );
    expect(paged.map((u) => u.enabledUser)).toEqual(['false']);
  });

  it('places each role at its schools and links students and guardians both ways, as the native records say', async () => {
    type Ref = { sourcedId: string };
    const schoolOfClass = new Map(
      (await native<{ class_id: string; school_id: string }>('classes')).map((c) => [
        c.class_id,
        c.school_id,
      ]),
    );
    const enrollments = await native<{ entity_id: string; class_id: string; role: string }>('enrollments');
    const studentEntity = new Map(
      (await native<{ student_id: string; entity_id: string }>('students')).map((s) => [
        s.student_id,
        s.entity_id,
      ]),
    );
    const tutors = await native<{ entity_id: string; student_ids: string[] }>('tutors');
    const users = new Map((await all('users', 'users')).map((u) => [u.sourcedId, u]));
    const schoolsOf = (entityId: string, asStudent: boolean) =>
      [
        ...new Set(
          enrollments
            .filter((e) => e.entity_id === entityId && (e.role === 'student') === asStudent)
            .map((e) => schoolOfClass.get(e.class_id) as string),
        ),
      ].sort();
    let placed = 0;
    for (const user of users.values()) {
      const roles = user.roles as { role: string; org: Ref }[];
      expect(user.primaryOrg).toEqual(roles[0]?.org);
      for (const [role, asStudent] of [
        ['student', true],
        ['teacher', false],
      ] as const) {
        const orgs = roles.filter((r) => r.role === role).map((r) => r.org.sourcedId);
        const schools = schoolsOf(user.sourcedId, asStudent);
        if (orgs.length === 0 || schools.length === 0) continue;
        expect(orgs, `${user.sourcedId} as ${role}`).toEqual(schools);
        placed += 1;
      }
      for (const agent of user.agents as Ref[]) {
        const back = ((users.get(agent.sourcedId)?.agents ?? []) as Ref[]).map((a) => a.sourcedId);
        expect(back, `${agent.sourcedId} links back to ${user.sourcedId}`).toContain(user.sourcedId);
      }
    }
    expect(placed).toBeGreaterThan(0);
    const linked = tutors.filter((t) => t.student_ids.length > 0);
    expect(linked.length).toBeGreaterThan(0);
    for (const tutor of linked) {
      const agents = ((users.get(tutor.entity_id)?.agents ?? []) as Ref[]).map((a) => a.sourcedId);
      expect(agents).toEqual(expect.arrayContaining(tutor.student_ids.map((id) => studentEntity.get(id))));
    }
  });

  it('agrees with the native records user by user: enabledUser, names, e-mail, and demographics', async () => {
    type Role = { ative: boolean; gender: string; birth_date: string; naturality: string };
    const records = new Map<string, Role>();
    for (const [group, idField] of [
      ['students', 'student_id'],
      ['teachers', 'teacher_id'],
      ['tutors', 'tutor_id'],
      ['staffs', 'staff_id'],
    ] as const) {
      for (const r of await native<Role & Record<string, string>>(group))
        records.set(r[idField] as string, r);
    }
    const entities = new Map((await nativeEntities()).map((e) => [e.entity_id, e]));
    const sexes: Record<string, string> = { male: 'male', female: 'female' };
    const demographics = new Map((await all('demographics', 'demographics')).map((d) => [d.sourcedId, d]));
    for (const user of await all('users', 'users')) {
      const entity = entities.get(user.sourcedId) as Entity;
      const roles = entity.roles.map((r) => records.get(r.id) as Role);
      expect(user.enabledUser, user.sourcedId).toBe(roles.some((r) => r.ative) ? 'true' : 'false');
      expect(`${user.givenName} ${user.familyName}`).toBe(entity.name);
      expect(user.email).toBe(entity.email);
      const first = roles[0] as Role;
      expect(demographics.get(user.sourcedId)).toMatchObject({
        birthDate: first.birth_date,
        cityOfBirth: first.naturality,
        sex: sexes[first.gender.toLowerCase()] ?? expect.any(String),
      });
    }
  });
});

describe('paging', () => {
  it('walks the Link next pages to the same objects as one page, with X-Total-Count on each', async () => {
    const everyone = await all('users', 'users');
    const seen: string[] = [];
    let next: string | undefined = `${api.url}${BASE}/users?limit=37`;
    while (next) {
      const response = await api.get(next.slice(api.url.length));
      const links = linksOf(response);
      expect(Number(response.headers.get('x-total-count'))).toBe(everyone.length);
      const body = await validResponse(response, 'UserSetDType');
      seen.push(...(body.users as Obj[]).map((u) => u.sourcedId));
      expect(links.first).toContain('offset=0');
      expect(links.last).toBeDefined();
      next = links.next;
    }
    expect(seen).toEqual(everyone.map((u) => u.sourcedId));
    const beyond = await validResponse(await api.get(`${BASE}/users?offset=100000`), 'UserSetDType');
    expect(beyond.users).toEqual([]);
  });
});

describe('paging on every collection', () => {
  /** Every object of a list, by following its Link next pages of `limit` from `offset`, checking each. */
  async function walk(path: string, limit: number, offset: number, total?: number) {
    const seen: Obj[] = [];
    let key = '';
    let next: string | undefined = `${api.url}${path}?limit=${limit}&offset=${offset}`;
    while (next) {
      const response = await api.get(next.slice(api.url.length));
      expect(response.status, path).toBe(200);
      const count = Number(response.headers.get('x-total-count'));
      if (total !== undefined) expect(count, path).toBe(total);
      const links = linksOf(response);
      const body = (await response.json()) as Record<string, Obj[]>;
      key = Object.keys(body)[0] as string;
      const at = Number(new URL(next).searchParams.get('offset'));
      expect(links.first, path).toContain(`limit=${limit}&offset=0`);
      expect(links.last, path).toContain(
        `offset=${count === 0 ? 0 : Math.floor((count - 1) / limit) * limit}`,
      );
      expect(links.prev !== undefined, path).toBe(at > 0);
      expect(links.next === undefined, path).toBe(at + limit >= count);
      seen.push(...(body[key] as Obj[]));
      next = links.next;
    }
    return { key, ids: seen.map((o) => o.sourcedId) };
  }

  it('answers X-Total-Count and Link on every list route, and its next pages walk to the whole list', async () => {
    const samples = await rosterSamples((path) => api.get(path));
    const lists = routes.filter((r) => r.dialect.kind === 'imsx' && r.id.startsWith('list-'));
    expect(lists.length).toBeGreaterThanOrEqual(29);
    for (const route of lists) {
      const path = samples.pathOf(route.path);
      const everything = (await walk(path, 1000, 0)).ids;
      expect(everything.length, route.id).toBeGreaterThan(0);
      // About four pages, from the second object: every page boundary and the prev link are crossed.
      const limit = Math.max(1, Math.ceil(everything.length / 4));
      const walked = await walk(path, limit, 1, everything.length);
      expect(walked.ids, route.id).toEqual(everything.slice(1));
    }
  }, 240_000);
});

describe('filter, sort and fields', () => {
  it('filters on a role, a name and with AND or OR', async () => {
    const students = await all('students', 'users');
    const byRole = await all('users', 'users', `&filter=${encodeURIComponent("roles.role='student'")}`);
    expect(byRole.map((u) => u.sourcedId)).toEqual(students.map((u) => u.sourcedId));
    const first = students[0] as Obj;
    const exact = await all(
      'users',
      'users',
      `&filter=${encodeURIComponent(`givenName='${first.givenName}' AND familyName='${first.familyName}'`)}`,
    );
    expect(exact.map((u) => u.sourcedId)).toContain(first.sourcedId);
    const either = await all(
      'users',
      'users',
      `&filter=${encodeURIComponent("roles.role='student' OR roles.role='teacher'")}`,
    );
    expect(either.length).toBeGreaterThan(students.length);
    const contains = await all('users', 'users', `&filter=${encodeURIComponent("email~'@'")}`);
    expect(contains.length).toBe((await all('users', 'users')).length);
  });

  it("reads only what changed with dateLastModified>, and sees a new person's user once the sync lag has passed", async () => {
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const created = await api.send('POST', '/api/students', personBody());
    expect(created.status).toBe(201);
    const { entity_id } = (await created.json()) as { entity_id: string };
    const entity = (await (await api.get(`/api/entities/${entity_id}`)).json()) as Entity;
    const since = `&filter=${encodeURIComponent(`dateLastModified>'${before}'`)}`;
    // Within the sync lag a change may still be committing: it is left for the next read.
    const early = await all('users', 'users', since);
    const lagged = Date.now() - TEST_SYNC_LAG_MS;
    expect(early.every((u) => Date.parse(u.dateLastModified as string) <= lagged)).toBe(true);
    await waitForSyncLag();
    const changed = await all('users', 'users', since);
    expect(changed.map((u) => u.sourcedId)).toContain(entity.entity_id);
    expect(changed.every((u) => Date.parse(u.dateLastModified as string) > Date.parse(before))).toBe(true);
    const later = await all(
      'users',
      'users',
      `&filter=${encodeURIComponent(`dateLastModified>='${entity.updated_at}'`)}`,
    );
    expect(later.map((u) => u.sourcedId)).toContain(entity.entity_id);
    const after = await all(
      'users',
      'users',
      `&filter=${encodeURIComponent(`dateLastModified>'${entity.updated_at}'`)}`,
    );
    expect(after.map((u) => u.sourcedId)).not.toContain(entity.entity_id);
  });

  it('answers an empty page for a dateLastModified> in the future', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    for (const op of ['>', '>=']) {
      const response = await api.get(
        `${BASE}/users?filter=${encodeURIComponent(`dateLastModified${op}'${future}'`)}`,
      );
      const body = await validResponse(response, 'UserSetDType');
      expect(body.users).toEqual([]);
      expect(response.headers.get('x-total-count')).toBe('0');
    }
  });

  it('compares dateLastModified as an instant, not as text', async () => {
    const [user] = await all('users', 'users', '&limit=1');
    // The stored time has milliseconds; the same instant written without them is not earlier.
    const at = new Date(Date.parse(user?.dateLastModified as string));
    const whole = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const wholeSecond = Date.parse(whole);
    const filter = (text: string) => `&filter=${encodeURIComponent(text)}`;
    const after = await all('users', 'users', filter(`dateLastModified>'${whole}'`));
    expect(after.some((u) => u.sourcedId === user?.sourcedId)).toBe(at.getTime() > wholeSecond);
    const exact = await all(
      'users',
      'users',
      filter(`dateLastModified='${at.toISOString().replace('Z', '+00:00')}'`),
    );
    expect(exact.map((u) => u.sourcedId)).toContain(user?.sourcedId);
  });

  it('sorts either way and keeps only the fields asked for', async () => {
    const asc = await all('users', 'users', '&sort=familyName');
    const desc = await all('users', 'users', '&sort=familyName&orderBy=desc');
    const collator = new Intl.Collator('en');
    const names = asc.map((u) => u.familyName as string);
    expect([...names].sort(collator.compare)).toEqual(names);
    expect(desc[0]?.familyName).toBe(names.at(-1));
    const response = await api.get(`${BASE}/users?fields=sourcedId,givenName&limit=3`);
    const body = (await response.json()) as { users: Obj[] };
    expect(body.users.map((u) => Object.keys(u).sort())).toEqual([
      ['givenName', 'sourcedId'],
      ['givenName', 'sourcedId'],
      ['givenName', 'sourcedId'],
    ]);
    const user = body.users[0] as Obj;
    const one = (await (await api.get(`${BASE}/users/${user.sourcedId}?fields=givenName,email`)).json()) as {
      user: Obj;
    };
    expect(Object.keys(one.user).sort()).toEqual(['email', 'givenName']);
    const [org] = await all('orgs', 'orgs', '&limit=1');
    const named = (await (
      await api.get(`${BASE}/orgs/${org?.sourcedId}?fields=name&fields=type`)
    ).json()) as {
      org: Obj;
    };
    expect(named.org).toEqual({ name: org?.name, type: org?.type });
  });

  it('answers every field when fields names one the objects lack, as the binding says', async () => {
    const [user] = await all('users', 'users', '&limit=1');
    const whole = await validResponse(
      await api.get(`${BASE}/users/${user?.sourcedId}?fields=givenName,shoeSize`),
      'SingleUserDType',
    );
    expect(whole.user).toEqual(user);
    const list = await validResponse(await api.get(`${BASE}/users?fields=shoeSize&limit=2`), 'UserSetDType');
    expect(Object.keys((list.users as Obj[])[0] as Obj)).toEqual(Object.keys(user as Obj));
  });

  it('serves a limit above 1000 as 1000, and says so in the Link header', async () => {
    const response = await api.get(`${BASE}/users?limit=5000`);
    const links = linksOf(response);
    const body = await validResponse(response, 'UserSetDType');
    const total = Number(response.headers.get('x-total-count'));
    expect((body.users as Obj[]).length).toBe(Math.min(total, 1000));
    expect(links.first).toContain('limit=1000');
  });
});

describe('errors', () => {
  it.each([
    ['limit=0', 'invaliddata'],
    ['limit=abc', 'invaliddata'],
    ['offset=-3', 'invaliddata'],
    ['orderBy=sideways', 'invaliddata'],
    ['sort=shoeSize', 'invalid_selection_field'],
    ['fields=sourcedId,', 'invalid_selection_field'],
    ['fields=', 'invalid_selection_field'],
    ['limit=5&limit=6', 'invaliddata'],
    [
      `filter=${encodeURIComponent("givenName='A'")}&filter=${encodeURIComponent("givenName='B'")}`,
      'invaliddata',
    ],
    ['sort=givenName&sort=familyName', 'invaliddata'],
    ['limit=1.5', 'invaliddata'],
    [`filter=${encodeURIComponent("shoeSize='42'")}`, 'invalid_filter_field'],
    [`filter=${encodeURIComponent('givenName=Ana')}`, 'invalid_filter_field'],
    [`filter=${encodeURIComponent("dateLastModified>'yesterday'")}`, 'invalid_filter_field'],
    ['page=2', 'invaliddata'],
  ])('refuses ?%s with a 400 imsx_StatusInfo (%s)', async (query, codeMinor) => {
    const body = await validResponse(await api.get(`${BASE}/users?${query}`), 'imsx_StatusInfoDType', 400);
    expect(body).toMatchObject({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldValue: codeMinor }] },
    });
  });
});

describe('date and date-time filters on every collection', () => {
  it.each([
    ['classes', "dateLastModified>'yesterday'"],
    ['enrollments', "beginDate>'2026-13-01'"],
    ['enrollments', "endDate<'soon'"],
    ['academicSessions', "startDate>='2026-09-01T00:00:00Z'"],
    ['terms', "endDate='31/12/2026'"],
    ['orgs', "dateLastModified<'2026-09-01'"],
    ['demographics', "birthDate>'2010-02-30'"],
    ['courses', "dateLastModified>'2026-09-01T00:00:00'"],
    // In UTC, the year 10000; and a day there is not, which was read as the 2nd of March.
    ['users', "dateLastModified>'9999-12-31T23:59:59-23:59'"],
    ['enrollments', "dateLastModified>'2026-02-30T00:00:00Z'"],
  ])('refuses /%s?filter=%s with 400 invalid_filter_field', async (collection, filter) => {
    const body = await validResponse(
      await api.get(`${BASE}/${collection}?filter=${encodeURIComponent(filter)}`),
      'imsx_StatusInfoDType',
      400,
    );
    expect(JSON.stringify(body)).toContain('invalid_filter_field');
  });

  it('compares dates as dates', async () => {
    const terms = await all('terms', 'academicSessions');
    const first = terms[0] as Obj;
    const from = await all(
      'terms',
      'academicSessions',
      `&filter=${encodeURIComponent(`startDate>='${first.startDate}'`)}`,
    );
    expect(from.map((t) => t.sourcedId)).toEqual(
      terms.filter((t) => (t.startDate as string) >= (first.startDate as string)).map((t) => t.sourcedId),
    );
  });
});

describe('path sourcedIds', () => {
  it('answers 404 unknownobject for a sourcedId that is not a UUID, however long, on every route with one', async () => {
    const long = 'x'.repeat(2000);
    for (const route of routes.filter(
      (r) => r.dialect.kind === 'imsx' && r.method === 'GET' && r.path.includes('{'),
    )) {
      for (const id of [long, 'no-such-id', `${'0'.repeat(8)}-0000-0000-0000-00000000000g`]) {
        const path = route.path.replace('{sourcedId}', id).replace('{classSourcedId}', id);
        const body = await validResponse(await api.get(path), 'imsx_StatusInfoDType', 404);
        expect(JSON.stringify(body), route.id).toContain('unknownobject');
        expect(JSON.stringify(body)).not.toContain(long);
      }
    }
  }, 120_000);

  it('reads a sourcedId given in upper case as the object it names', async () => {
    const [user] = await all('users', 'users', '&limit=1');
    const cls = (await all('classes', 'classes', '&limit=1'))[0] as Obj;
    const body = await validResponse(
      await api.get(`${BASE}/users/${user?.sourcedId.toUpperCase()}`),
      'SingleUserDType',
    );
    expect((body.user as Obj).sourcedId).toBe(user?.sourcedId);
    const school = (cls.school as { sourcedId: string }).sourcedId.toUpperCase();
    const students = await validResponse(
      await api.get(`${BASE}/schools/${school}/classes/${cls.sourcedId.toUpperCase()}/students`),
      'UserSetDType',
    );
    expect((students.users as Obj[]).length).toBeGreaterThan(0);
  });
});

describe('scopes', () => {
  it('answers 401 without a token, with a Bearer challenge', async () => {
    const response = await api.get(`${BASE}/users`, { token: null });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const body = await validResponse(response, 'imsx_StatusInfoDType', 401);
    expect(JSON.stringify(body)).toContain('unauthorisedrequest');
  });

  it('reads the core collections with roster-core.readonly or roster.readonly, demographics with its own scope', async () => {
    const core = await api.token(oneRosterScopes.core);
    const roster = await api.token(oneRosterScopes.roster);
    const demographics = await api.token(oneRosterScopes.demographics);
    const nativeScope = await api.token('students:read');
    for (const token of [core, roster]) {
      await validResponse(await api.get(`${BASE}/users?limit=1`, { token }), 'UserSetDType');
      const refused = await validResponse(
        await api.get(`${BASE}/demographics?limit=1`, { token }),
        'imsx_StatusInfoDType',
        403,
      );
      expect(JSON.stringify(refused)).toContain('forbidden');
    }
    await validResponse(
      await api.get(`${BASE}/demographics?limit=1`, { token: demographics }),
      'DemographicsSetDType',
    );
    await validResponse(
      await api.get(`${BASE}/orgs?limit=1`, { token: demographics }),
      'imsx_StatusInfoDType',
      403,
    );
    await validResponse(
      await api.get(`${BASE}/users?limit=1`, { token: nativeScope }),
      'imsx_StatusInfoDType',
      403,
    );
  });
});

describe('the rostering model: sessions, courses, classes, enrollments and the nested collections', () => {
  it('answers every route with objects that meet the binding schemas', async () => {
    const samples = await rosterSamples((path) => api.get(path));
    const rostering = routes.filter((r) => r.dialect.kind === 'imsx' && r.method === 'GET');
    expect(rostering.length).toBeGreaterThanOrEqual(40);
    for (const route of rostering) {
      const path = samples.pathOf(route.path);
      const response = await api.get(
        `${path}${route.path.includes('{') && !route.id.startsWith('list-') ? '' : '?limit=1000'}`,
      );
      const text = await response.text();
      expect(response.status, `${route.id} ${path}: ${text}`).toBe(200);
      const body = JSON.parse(text) as Record<string, unknown>;
      const [key] = Object.keys(body) as [string];
      const isList = route.id.startsWith('list-');
      const schemaName = key === 'demographics' && !isList ? 'SingleDemographicsDType' : schemaOfKey[key];
      const validate = schema(schemaName as string);
      expect(validate(body), `${route.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (isList) {
        expect((body[key] as unknown[]).length, `${route.id} lists something`).toBeGreaterThan(0);
      }
    }
  }, 240_000);

  it('maps classes, enrollments and sessions from the native records', async () => {
    const classes = await native<{
      class_id: string;
      school_id: string;
      course_id: string;
      term_ids: string[];
      title: string;
    }>('classes');
    const orClasses = await all('classes', 'classes');
    expect(orClasses.map((c) => c.sourcedId)).toEqual(classes.map((c) => c.class_id).sort());
    const cls = classes[0] as (typeof classes)[number];
    const mapped = orClasses.find((c) => c.sourcedId === cls.class_id) as Obj;
    expect(mapped).toMatchObject({
      title: cls.title,
      school: { sourcedId: cls.school_id, type: 'org' },
      course: { sourcedId: cls.course_id, type: 'course' },
      terms: cls.term_ids.map((id) => ({ sourcedId: id, type: 'academicSession' })),
    });
    const enrollments = await native<{
      enrollment_id: string;
      class_id: string;
      entity_id: string;
      role: string;
    }>('enrollments');
    const ofClass = enrollments.filter((e) => e.class_id === cls.class_id);
    const students = await all(`classes/${cls.class_id}/students`, 'users');
    expect(students.map((u) => u.sourcedId)).toEqual(
      [...new Set(ofClass.filter((e) => e.role === 'student').map((e) => e.entity_id))].sort(),
    );
    const school = await all(`schools/${cls.school_id}/enrollments`, 'enrollments');
    const schoolClasses = new Set(
      classes.filter((c) => c.school_id === cls.school_id).map((c) => c.class_id),
    );
    expect(school.length).toBe(enrollments.filter((e) => schoolClasses.has(e.class_id)).length);
    const sessions = await native<{ academic_session_id: string; type: string }>('academic_sessions');
    expect((await all('terms', 'academicSessions')).length).toBe(
      sessions.filter((s) => s.type === 'term').length,
    );
    const periods = await all('gradingPeriods', 'academicSessions');
    expect(periods.map((p) => p.sourcedId)).toEqual(
      sessions
        .filter((s) => s.type === 'grading_period')
        .map((s) => s.academic_session_id)
        .sort(),
    );
    expect(periods.length).toBeGreaterThan(0);
    const term = (await all('terms', 'academicSessions'))[0] as Obj;
    const ofTerm = await all(`terms/${term.sourcedId}/gradingPeriods`, 'academicSessions');
    expect(ofTerm.map((p) => p.sourcedId)).toEqual(
      (term.children as { sourcedId: string }[]).map((c) => c.sourcedId).sort(),
    );
    for (const period of ofTerm) {
      expect(period).toMatchObject({ type: 'gradingPeriod', parent: { sourcedId: term.sourcedId } });
      const one = await validResponse(
        await api.get(`${BASE}/gradingPeriods/${period.sourcedId}`),
        'SingleAcademicSessionDType',
      );
      expect(one.academicSession).toEqual(period);
    }
    await validResponse(
      await api.get(`${BASE}/gradingPeriods/${term.sourcedId}`),
      'imsx_StatusInfoDType',
      404,
    );
    const student = students[0] as Obj;
    const theirClasses = await all(`students/${student.sourcedId}/classes`, 'classes');
    expect(theirClasses.map((c) => c.sourcedId)).toContain(cls.class_id);
    expect(theirClasses.length).toBeGreaterThanOrEqual(6);
  });

  it('answers unknownobject for a nested path under an object that is not there, and needs roster.readonly', async () => {
    const body = await validResponse(
      await api.get(`${BASE}/schools/none/classes`),
      'imsx_StatusInfoDType',
      404,
    );
    expect(JSON.stringify(body)).toContain('unknownobject');
    const core = await api.token(oneRosterScopes.core);
    await validResponse(await api.get(`${BASE}/classes?limit=1`, { token: core }), 'ClassSetDType');
    const [cls] = await all('classes', 'classes', '&limit=1');
    await validResponse(
      await api.get(`${BASE}/classes/${cls?.sourcedId}/students`, { token: core }),
      'imsx_StatusInfoDType',
      403,
    );
  });
});
