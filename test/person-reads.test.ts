// Relationship-based reads (issue 3, deliverables 5 and 6; issue "Rostering", deliverable 4): a person's
// token reads what the role table lets their roles reach, and nothing else. A guardian reads the students
// in their care, their own tutor records and the children's classes, a student their own record and
// classes, a teacher the students of the classes they teach, staff their groups whole. Anything else answers
// 404 exactly as an unknown id does (never 403 or 410, so ids don't leak); lists, changes and deletions are
// filtered and paged the same way; GET /api/sso/me says who the person is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { encodeCursor } from '../shared/data/cursor';
import { idFields, type RecordGroup, recordGroups, scopes } from '../shared/domain/groups';
import type { Entity, EntityRole, Tutor } from '../shared/schemas/records';
import type { ProblemDetails } from '../shared/schemas/service';
import { expectProblem, json } from './support/contract';
import { personBody } from './support/fixtures';
import { localIssuer } from './support/person-token';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Page = Row & { total_items: number; total_pages: number; page: number; next_cursor?: string };
type Feed = Row & { sync_until: string; next_cursor?: string };

const tokens = new Map<string, string>();
async function tokenOf(username: string): Promise<string> {
  const token = tokens.get(username) ?? (await api.personToken(username));
  tokens.set(username, token);
  return token;
}
const read = async (username: string, path: string, headers?: Record<string, string>) =>
  api.get(path, { token: await tokenOf(username), ...(headers ? { headers } : {}) });

/** A demo account, its entity, and the ids of its records of a role, as the table holds them. */
async function account(username: string) {
  const user = await api.users.byLogin(username);
  if (!user) throw new Error(`no demo account ${username}`);
  const entity = (await api.records.get('entities', user.entity_id))?.record as Entity;
  const own = (role: EntityRole['role']) => entity.roles.filter((r) => r.role === role).map((r) => r.id);
  return { user, entity, own };
}

/** The students in the care of an account's tutor records, in id order. */
async function childrenOf(username: string): Promise<string[]> {
  const { own } = await account(username);
  const ids = new Set<string>();
  for (const tutorId of own('tutor')) {
    const tutor = (await api.records.get('tutors', tutorId))?.record as Tutor;
    for (const id of tutor.student_ids) ids.add(id);
  }
  return [...ids].sort();
}

const idsOf = (page: Row, group: RecordGroup) =>
  (page[group] as Row[]).map((record) => record[idFields[group]] as string);

/** Follows next_cursor from a first page to the last one. */
async function walk<P extends Row & { next_cursor?: string }>(
  username: string,
  path: string,
  query: { items_per_page: string; updated_since?: string },
) {
  const pages: P[] = [await json<P>(await read(username, `${path}?${new URLSearchParams(query)}`))];
  for (let cursor = pages[0]?.next_cursor; cursor; cursor = pages.at(-1)?.next_cursor) {
    const next = new URLSearchParams({ items_per_page: query.items_per_page, cursor });
    pages.push(await json<P>(await read(username, `${path}?${next}`)));
  }
  return pages;
}

/** A 404 problem with its request-specific parts taken out. */
function withoutRequest(problem: ProblemDetails, id: string) {
  const { request_id: _request, instance: _instance, ...rest } = problem;
  return { ...rest, detail: rest.detail.replace(id, '<id>') };
}

const headerNames = (response: Response) =>
  [...response.headers.keys()].filter((name) => name !== 'date' && name !== 'content-length').sort();

/** A replacement body for a tutor record: its fields, with other students in its care. */
function tutorBody(tutor: Tutor, studentIds: string[]) {
  const { tutor_id: _id, created_at: _created, updated_at: _updated, ...fields } = tutor;
  return { ...fields, student_ids: studentIds };
}

describe('the scopes of a person come from the role table (docs/sso.md)', () => {
  const rostering = [
    'academic_sessions:read',
    'courses:read',
    'classes:read',
    'enrollments:read',
    'gradebook:read',
    'attendance:read',
    'assessment:read',
  ];
  const expected: Record<string, string[]> = {
    admin: [...scopes],
    teacher: [
      'students:read',
      'teachers:read',
      'tutors:read',
      ...rostering,
      'gradebook:write',
      'attendance:write',
    ],
    guardian: [
      'students:read',
      'tutors:read',
      ...rostering,
      'students:read:sensitive',
      'tutors:read:sensitive',
    ],
    guardian2: [
      'students:read',
      'tutors:read',
      ...rostering,
      'students:read:sensitive',
      'tutors:read:sensitive',
    ],
    student: ['students:read', ...rostering, 'students:read:sensitive'],
    staff: ['staffs:read', 'teachers:read', ...rostering],
  };
  it.each(Object.entries(expected))('%s', async (username, scopesOfAccount) => {
    const me = await json<{ scopes: string[] }>(await read(username, '/api/sso/me'));
    expect([...me.scopes].sort()).toEqual([...scopesOfAccount].sort());
  });
});

describe('a guardian (tutor role: students in care, own tutor records)', () => {
  it('lists exactly the students in their care, and reads each of them', async () => {
    const children = await childrenOf('guardian');
    expect(children.length).toBeGreaterThanOrEqual(2);
    const page = await json<Page>(await read('guardian', '/api/students?items_per_page=500'));
    expect(idsOf(page, 'students')).toEqual(children);
    expect(page).toMatchObject({ page: 1, total_items: children.length, total_pages: 1 });
    expect(page.next_cursor).toBeUndefined();
    for (const [i, id] of children.entries()) {
      const one = await json<Row>(await read('guardian', `/api/students/${id}`));
      expect(one).toEqual((page.students as Row[])[i]);
    }
  });

  it("gets 404 for another family's child, the same answer as for an id nobody has", async () => {
    const [otherChild] = await childrenOf('guardian2');
    const mine = await childrenOf('guardian');
    expect(otherChild).toBeDefined();
    expect(mine).not.toContain(otherChild);
    const missing = randomUUID();
    const outside = await read('guardian', `/api/students/${otherChild}`);
    const nobody = await read('guardian', `/api/students/${missing}`);
    expect(headerNames(outside)).toEqual(headerNames(nobody));
    expect(outside.headers.get('etag')).toBeNull();
    const outsideProblem = await expectProblem(outside, 404);
    const nobodyProblem = await expectProblem(nobody, 404);
    expect(withoutRequest(outsideProblem, otherChild as string)).toEqual(
      withoutRequest(nobodyProblem, missing),
    );
    // The client reads it: it exists.
    await json(await api.get(`/api/students/${otherChild}`));
  });

  it('gets 404, never 304, for a record outside their reach whatever If-None-Match says', async () => {
    const [otherChild] = await childrenOf('guardian2');
    const tag = (await api.get(`/api/students/${otherChild}`)).headers.get('etag') as string;
    for (const condition of [tag, '*']) {
      await expectProblem(
        await read('guardian', `/api/students/${otherChild}`, { 'if-none-match': condition }),
        404,
      );
    }
    const [child] = await childrenOf('guardian');
    const own = await read('guardian', `/api/students/${child}`);
    expect(own.status).toBe(200);
    const again = await read('guardian', `/api/students/${child}`, {
      'if-none-match': own.headers.get('etag') as string,
    });
    expect(again.status).toBe(304);
  });

  it('reads their own tutor records, and no other tutor', async () => {
    const mine = (await account('guardian')).own('tutor').sort();
    const [other] = (await account('guardian2')).own('tutor');
    const page = await json<Page>(await read('guardian', '/api/tutors'));
    expect(idsOf(page, 'tutors')).toEqual(mine);
    expect(page.total_items).toBe(mine.length);
    for (const id of mine) await json(await read('guardian', `/api/tutors/${id}`));
    await expectProblem(await read('guardian', `/api/tutors/${other}`), 404);
  });

  it('gets 403 for groups their roles do not reach', async () => {
    for (const group of ['entities', 'teachers', 'staffs'] as const) {
      const problem = await expectProblem(await read('guardian', `/api/${group}`), 403);
      expect(problem.detail).toContain(`${group}:read`);
    }
  });
});

describe('a restricted list pages like any list (contract section 4)', () => {
  it('one record a page, following cursors, with total_items and total_pages of what they may read', async () => {
    const children = await childrenOf('guardian');
    const pages = await walk<Page>('guardian', '/api/students', { items_per_page: '1' });
    expect(pages.flatMap((p) => idsOf(p, 'students'))).toEqual(children);
    pages.forEach((page, i) => {
      expect(page).toMatchObject({
        page: i + 1,
        items_per_page: 1,
        total_items: children.length,
        total_pages: children.length,
      });
      expect(Boolean(page.next_cursor)).toBe(i < children.length - 1);
    });
  });

  it('page numbers give the same pages, and past the last an empty page without a cursor', async () => {
    const children = await childrenOf('guardian');
    for (const [i, id] of children.entries()) {
      const page = await json<Page>(await read('guardian', `/api/students?items_per_page=1&page=${i + 1}`));
      expect(idsOf(page, 'students')).toEqual([id]);
    }
    const beyond = await json<Page>(
      await read('guardian', `/api/students?items_per_page=1&page=${children.length + 1}`),
    );
    expect(beyond.students).toEqual([]);
    expect(beyond.next_cursor).toBeUndefined();
    expect(beyond.total_items).toBe(children.length);
  });

  it("a cursor from a wider list continues within the caller's reach", async () => {
    const children = await childrenOf('guardian');
    const clientPage = await json<Page>(await api.get('/api/students?items_per_page=1'));
    const after = idsOf(clientPage, 'students')[0] as string;
    const page = await json<Page>(
      await read('guardian', `/api/students?items_per_page=500&cursor=${clientPage.next_cursor}`),
    );
    expect(idsOf(page, 'students')).toEqual(children.filter((id) => id > after));
  });

  it('refuses cursors of another list or tenant, and a cursor with a page number', async () => {
    const after = '00000000-0000-4000-8000-000000000000';
    const cursors = [
      encodeCursor(api.cursorIssuer, 'teachers', { kind: 'list', page: 2, after }),
      encodeCursor({ ...api.cursorIssuer, tenantId: 'another-school' }, 'students', {
        kind: 'list',
        page: 2,
        after,
      }),
      'not-a-cursor',
    ];
    for (const cursor of cursors) {
      const problem = await expectProblem(await read('guardian', `/api/students?cursor=${cursor}`), 400);
      expect(problem.errors?.[0]?.name).toBe('cursor');
    }
    const first = await json<Page>(await read('guardian', '/api/students?items_per_page=1'));
    await expectProblem(
      await read('guardian', `/api/students?items_per_page=1&page=2&cursor=${first.next_cursor}`),
      400,
    );
  });
});

describe('a student (own record only)', () => {
  it('lists and reads only their own record', async () => {
    const [own] = (await account('student')).own('student');
    const page = await json<Page>(await read('student', '/api/students'));
    expect(idsOf(page, 'students')).toEqual([own]);
    expect(page).toMatchObject({ total_items: 1, total_pages: 1 });
    await json(await read('student', `/api/students/${own}`));
    const [someoneElse] = await childrenOf('guardian');
    await expectProblem(await read('student', `/api/students/${someoneElse}`), 404);
    await expectProblem(await read('student', '/api/tutors'), 403);
  });
});

describe('roles that reach a group whole', () => {
  const totals = async (group: RecordGroup) =>
    (await json<Page>(await api.get(`/api/${group}?items_per_page=1`))).total_items;

  it('a teacher reads every teacher and tutor', async () => {
    for (const group of ['teachers', 'tutors'] as const) {
      const page = await json<Page>(await read('teacher', `/api/${group}?items_per_page=1`));
      expect(page.total_items).toBe(await totals(group));
    }
  });

  it('staff cannot read students (403, scope) but read every teacher and staff member', async () => {
    const denied = await read('staff', '/api/students');
    expect(denied.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    await expectProblem(denied, 403);
    for (const group of ['teachers', 'staffs'] as const) {
      const page = await json<Page>(await read('staff', `/api/${group}?items_per_page=1`));
      expect(page.total_items).toBe(await totals(group));
    }
  });

  it('an admin reads every group whole', async () => {
    for (const group of recordGroups) {
      const page = await json<Page>(await read('admin', `/api/${group}?items_per_page=1`));
      expect(page.total_items).toBe(await totals(group));
      const [id] = idsOf(page, group);
      await json(await read('admin', `/api/${group}/${id}`));
    }
  });
});

describe('reach follows classes (issue "Rostering", deliverable 4)', () => {
  /** The enrollments of a person, and of a class, as the table holds them. */
  const enrollmentsOf = (entityId: string) => api.records.enrollmentsOfPerson(entityId);
  const classesOf = async (username: string, role = 'student') =>
    [
      ...new Set(
        (await enrollmentsOf((await account(username)).entity.entity_id))
          .filter((e) => e.role === role)
          .map((e) => e.class_id),
      ),
    ].sort();
  /** The student records of the people enrolled as students in some classes. */
  async function studentsIn(classIds: readonly string[]) {
    const ids = new Set<string>();
    for (const classId of classIds) {
      for (const e of await api.records.enrollmentsOfClass(classId)) {
        if (e.role !== 'student') continue;
        const entity = (await api.records.get('entities', e.entity_id))?.record as Entity;
        for (const role of entity.roles) if (role.role === 'student') ids.add(role.id);
      }
    }
    return [...ids].sort();
  }
  const list = async (username: string, group: RecordGroup) =>
    (await walk<Page>(username, `/api/${group}`, { items_per_page: '500' })).flatMap((p) => idsOf(p, group));

  it('a teacher lists exactly the students of the classes they teach, and gets 404 for any other', async () => {
    const taught = await classesOf('teacher', 'teacher');
    expect(taught.length).toBeGreaterThan(0);
    const pupils = await studentsIn(taught);
    expect(pupils.length).toBeGreaterThan(0);
    expect(await list('teacher', 'students')).toEqual(pupils);
    const page = await json<Page>(await read('teacher', '/api/students?items_per_page=1'));
    expect(page.total_items).toBe(pupils.length);
    expect(page.total_items).toBeLessThan(
      await json<Page>(await api.get('/api/students?items_per_page=1')).then((p) => p.total_items),
    );
    await json(await read('teacher', `/api/students/${pupils[0]}`));
    const all = idsOf(await json<Page>(await api.get('/api/students?items_per_page=500')), 'students');
    const outside = all.find((id) => !pupils.includes(id)) as string;
    await expectProblem(await read('teacher', `/api/students/${outside}`), 404);
  });

  it('a teacher reads their classes, and the enrollments of those classes only', async () => {
    const { entity } = await account('teacher');
    const taught = await classesOf('teacher', 'teacher');
    expect(await list('teacher', 'classes')).toEqual(taught);
    const expected = (await Promise.all(taught.map((id) => api.records.enrollmentsOfClass(id))))
      .flat()
      .map((e) => e.enrollment_id)
      .sort();
    expect(await list('teacher', 'enrollments')).toEqual(expected);
    expect(expected.length).toBeGreaterThan(taught.length);
    const [other] = (await enrollmentsOf((await account('student')).entity.entity_id)).filter(
      (e) => !taught.includes(e.class_id),
    );
    if (other) await expectProblem(await read('teacher', `/api/enrollments/${other.enrollment_id}`), 404);
    expect(entity.entity_type).toBe('person');
  });

  it('a student reads their own classes and enrollments; a guardian those of the children in their care', async () => {
    const { entity } = await account('student');
    expect(await list('student', 'classes')).toEqual(await classesOf('student'));
    expect(await list('student', 'enrollments')).toEqual(
      (await enrollmentsOf(entity.entity_id)).map((e) => e.enrollment_id).sort(),
    );
    const children = await childrenOf('guardian');
    const childEntities = await Promise.all(
      children.map(async (id) => (await api.records.get('students', id))?.record.entity_id as string),
    );
    const childEnrollments = (await Promise.all(childEntities.map(enrollmentsOf))).flat();
    expect(await list('guardian', 'classes')).toEqual(
      [...new Set(childEnrollments.map((e) => e.class_id))].sort(),
    );
    expect(await list('guardian', 'enrollments')).toEqual(
      childEnrollments.map((e) => e.enrollment_id).sort(),
    );
    expect((await json<Page>(await read('guardian', '/api/courses?items_per_page=1'))).total_items).toBe(
      await totals('courses'),
    );
  });

  it("a student enrolled in a class joins its teacher's reach, and leaves it when the enrollment goes", async () => {
    const [taughtClass] = await classesOf('teacher', 'teacher');
    const created = await json<Row>(await api.send('POST', '/api/students', personBody()), 201);
    await expectProblem(await read('teacher', `/api/students/${created.student_id}`), 404);
    const enrollment = await json<Row>(
      await api.send('POST', '/api/enrollments', {
        class_id: taughtClass,
        entity_id: created.entity_id,
        role: 'student',
      }),
      201,
    );
    await json(await read('teacher', `/api/students/${created.student_id}`));
    expect(await list('teacher', 'students')).toContain(created.student_id);
    expect((await api.send('DELETE', `/api/enrollments/${enrollment.enrollment_id}`)).status).toBe(204);
    await expectProblem(await read('teacher', `/api/students/${created.student_id}`), 404);
  });

  async function totals(group: RecordGroup) {
    return (await json<Page>(await api.get(`/api/${group}?items_per_page=1`))).total_items;
  }
});

describe('GET /api/sso/me (issue 3, deliverable 5)', () => {
  const roles: Record<string, string[]> = {
    admin: ['admin', 'staff'],
    teacher: ['teacher'],
    guardian: ['tutor'],
    student: ['student'],
    staff: ['staff'],
  };
  it.each(Object.entries(roles))("for %s's token: the person, their roles and records", async (name, r) => {
    const { user, entity, own } = await account(name);
    const me = await json<Row>(await read(name, '/api/sso/me'));
    expect(me).toEqual({
      sub: user.user_id,
      client_id: DEMO_CLIENT_ID,
      tenant_id: 'demo',
      scopes: expect.any(Array),
      exp: expect.any(Number),
      expires_at: expect.any(String),
      user_id: user.user_id,
      username: name,
      name: entity.name,
      email: user.email ?? entity.email,
      roles: r,
      entity_id: entity.entity_id,
      student_ids: own('student'),
      teacher_ids: own('teacher'),
      tutor_ids: own('tutor'),
      staff_ids: own('staff'),
    });
  });

  it("for a client's token: the client, as before", async () => {
    const me = await json<Row>(await api.get('/api/sso/me'));
    expect(Object.keys(me).sort()).toEqual(['client_id', 'exp', 'expires_at', 'scopes', 'sub', 'tenant_id']);
    expect(me.sub).toBe(DEMO_CLIENT_ID);
  });

  it('answers 401 once the account is disabled or locked, and again 200 once it is active', async () => {
    const { user } = await account('guardian2');
    for (const status of ['disabled', 'locked'] as const) {
      await api.users.update(user.user_id, { status });
      const refused = await read('guardian2', '/api/sso/me');
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await expectProblem(refused, 401);
    }
    await api.users.update(user.user_id, { status: 'active' });
    await json(await read('guardian2', '/api/sso/me'));
  });

  it('answers 401 for a token whose account does not exist', async () => {
    const { entity } = await account('guardian');
    const ghost = randomUUID();
    const { token } = await localIssuer(api.db, api.tableName, api.url).issue({
      subject: ghost,
      clientId: DEMO_CLIENT_ID,
      scopes: ['students:read'],
      person: { userId: ghost, entityId: entity.entity_id, roles: ['tutor'] },
    });
    await expectProblem(await api.get('/api/sso/me', { token }), 401);
  });
});

describe('feeds for a person (updated_since and /deleted, docs/data-model.md)', () => {
  it('the changes feed holds only what they may read, paged by cursor, then only what changed', async () => {
    // What the tests before this one wrote is older than the walk's watermark once the sync lag has
    // passed; otherwise a student they made within it is told again after the watermark (ci58).
    await waitForSyncLag();
    const children = await childrenOf('guardian');
    const pages = await walk<Feed>('guardian', '/api/students', {
      updated_since: '1970-01-01T00:00:00Z',
      items_per_page: '1',
    });
    expect(pages.flatMap((p) => idsOf(p, 'students')).sort()).toEqual(children);
    expect(pages).toHaveLength(children.length);
    const watermark = (pages.at(-1) as Feed).sync_until;
    await waitForSyncLag();

    const [child] = children;
    const [otherChild] = await childrenOf('guardian2');
    for (const id of [child, otherChild]) {
      const {
        student_id: _id,
        created_at: _c,
        updated_at: _u,
        ...fields
      } = await json<Row>(await api.get(`/api/students/${id}`));
      await json(
        await api.send('PUT', `/api/students/${id}`, { ...fields, name: `${fields.name} (changed)` }),
      );
    }
    await waitForSyncLag();
    const changed = await json<Feed>(await read('guardian', `/api/students?updated_since=${watermark}`));
    expect(idsOf(changed, 'students')).toEqual([child]);
    const forClient = await json<Feed>(await api.get(`/api/students?updated_since=${watermark}`));
    expect(idsOf(forClient, 'students').sort()).toEqual([child, otherChild].sort());
  });

  it('/deleted lists nothing they could not read; a deleted record outside their reach is a 404', async () => {
    const since = new Date().toISOString();
    const created = await json<Row>(await api.send('POST', '/api/students', personBody()), 201);
    const id = created.student_id as string;
    expect((await api.send('DELETE', `/api/students/${id}`)).status).toBe(204);
    await waitForSyncLag();
    const forClient = await json<Row>(await api.get(`/api/students/deleted?since=${since}`));
    expect(forClient.deleted).toContainEqual(expect.objectContaining({ student_id: id }));
    for (const name of ['student', 'guardian']) {
      const feed = await json<Row>(await read(name, `/api/students/deleted?since=${since}`));
      expect(feed).toMatchObject({ deleted: [], since });
      expect(feed.next_cursor).toBeUndefined();
      const firstLoad = await json<Row>(await read(name, '/api/students/deleted'));
      expect(firstLoad.deleted).toEqual([]);
    }
    await expectProblem(await api.get(`/api/students/${id}`), 410);
    await expectProblem(await read('guardian', `/api/students/${id}`), 404);
  });

  it('a student put in their care shows at once, and in the changes feed however old its last change', async () => {
    const { own } = await account('guardian');
    const tutorId = own('tutor')[0] as string;
    const tutor = (await api.records.get('tutors', tutorId))?.record as Tutor;
    const [added] = await childrenOf('guardian2');
    const before = await json<Feed>(
      await read('guardian', `/api/students?updated_since=${new Date(0).toISOString()}`),
    );
    await expectProblem(await read('guardian', `/api/students/${added}`), 404);

    const put = await api.send(
      'PUT',
      `/api/tutors/${tutorId}`,
      tutorBody(tutor, [...tutor.student_ids, added as string]),
    );
    await json(put);
    const listed = await json<Page>(await read('guardian', '/api/students?items_per_page=500'));
    expect(idsOf(listed, 'students')).toContain(added);
    expect(listed.total_items).toBe((await childrenOf('guardian')).length);
    await json(await read('guardian', `/api/students/${added}`));

    await waitForSyncLag();
    const changes = await json<Feed>(
      await read('guardian', `/api/students?updated_since=${before.sync_until}`),
    );
    expect(idsOf(changes, 'students')).toContain(added);
    // Which records left their reach since then is not kept: they are told to list again.
    await expectProblem(await read('guardian', `/api/students/deleted?since=${before.sync_until}`), 410);

    const restored = await api.send('PUT', `/api/tutors/${tutorId}`, tutorBody(tutor, tutor.student_ids));
    await json(restored);
    await expectProblem(await read('guardian', `/api/students/${added}`), 404);
    const relisted = await json<Page>(await read('guardian', '/api/students?items_per_page=500'));
    expect(idsOf(relisted, 'students')).not.toContain(added);

    await waitForSyncLag();
    const now = await json<Feed>(await read('guardian', `/api/students?updated_since=${before.sync_until}`));
    const quiet = await json<Row>(await read('guardian', `/api/students/deleted?since=${now.sync_until}`));
    expect(quiet.deleted).toEqual([]);
  });
});
