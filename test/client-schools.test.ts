// School scoping (issue "client governance", part 2; docs/sso.md, "School scoping"): a client registered
// with `schools` reads, on every native read route, exactly the records those schools hold by the rule
// the docs state, which this test derives independently from what the tenant's administrator reads;
// totals, the changes feed, lookups and gets agree with it; a record that leaves the schools, or is
// deleted there, comes in its deletions feed; writes outside the schools are refused and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchoolHoldings, sharedBySchools } from '../shared/auth/school-scope';
import { RecordRepository } from '../shared/data/record-repository';
import { idFields, oneRosterScopes, type RecordGroup, recordGroups } from '../shared/domain/groups';
import { personBody } from './support/fixtures';
import { registeredClient } from './support/oauth';
import { createRecord, removeRecord, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ revocationRefreshSeconds: 0 });
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
const readScopes = [
  'entities:read',
  'students:read',
  'teachers:read',
  'tutors:read',
  'staffs:read',
  'academic_sessions:read',
  'courses:read',
  'classes:read',
  'enrollments:read',
  'gradebook:read',
  'attendance:read',
  'assessment:read',
];
const idField: Record<RecordGroup, string> = idFields;

const scopedClient = (schools: unknown, scopes: string[] = readScopes) =>
  registeredClient(api, { name: 'One school', scopes, schools });

/** Every record of a list, following its cursors, with the first page's total. */
async function walk(group: RecordGroup, token?: string, query = '') {
  const rows: Row[] = [];
  let total: number | undefined;
  let next: string | undefined = `/api/${group}?items_per_page=50${query}`;
  while (next) {
    const response = await api.get(next, token === undefined ? {} : { token });
    expect(response.status, await response.clone().text()).toBe(200);
    const page = (await response.json()) as Row;
    total ??= page.total_items as number | undefined;
    rows.push(...(page[group] as Row[]));
    next = page.next_cursor
      ? `/api/${group}?items_per_page=50&cursor=${page.next_cursor as string}`
      : undefined;
  }
  return { rows, total };
}

const ids = (group: RecordGroup, rows: readonly Row[]) => rows.map((r) => r[idField[group]] as string).sort();

/** What the rule of docs/sso.md says a school holds, from the administrator's reads. */
async function heldBy(school: string): Promise<Record<RecordGroup, string[]>> {
  const all = async (group: RecordGroup) => (await walk(group)).rows;
  const [
    classes,
    enrollments,
    students,
    teachers,
    tutors,
    sessions,
    categories,
    scales,
    lineItems,
    results,
    attendance,
  ] = await Promise.all([
    all('classes'),
    all('enrollments'),
    all('students'),
    all('teachers'),
    all('tutors'),
    all('academic_sessions'),
    all('categories'),
    all('score_scales'),
    all('line_items'),
    all('results'),
    all('attendance'),
  ]);
  const itsClasses = classes.filter((c) => c.school_id === school);
  const classIds = new Set(itsClasses.map((c) => c.class_id));
  const itsEnrollments = enrollments.filter((e) => classIds.has(e.class_id));
  const learners = new Set(itsEnrollments.filter((e) => e.role === 'student').map((e) => e.entity_id));
  const staff = new Set(itsEnrollments.filter((e) => e.role !== 'student').map((e) => e.entity_id));
  const itsStudents = students.filter((s) => learners.has(s.entity_id));
  const studentIds = new Set(itsStudents.map((s) => s.student_id));
  const itsTutors = tutors.filter((t) => (t.student_ids as string[]).some((id) => studentIds.has(id)));
  const terms = new Set<string>(itsClasses.flatMap((c) => c.term_ids as string[]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of sessions) {
      const parent = s.parent_id as string | null;
      if (terms.has(s.academic_session_id as string) && parent && !terms.has(parent)) {
        terms.add(parent);
        grew = true;
      }
    }
  }
  const sorted = (values: Iterable<unknown>) => [...new Set(values)].map(String).sort();
  return {
    classes: sorted(classIds),
    enrollments: sorted(itsEnrollments.map((e) => e.enrollment_id)),
    students: sorted(itsStudents.map((s) => s.student_id)),
    teachers: sorted(teachers.filter((t) => staff.has(t.entity_id)).map((t) => t.teacher_id)),
    tutors: sorted(itsTutors.map((t) => t.tutor_id)),
    entities: sorted([school, ...learners, ...staff, ...itsTutors.map((t) => t.entity_id)]),
    courses: sorted(itsClasses.map((c) => c.course_id)),
    academic_sessions: sorted(terms),
    staffs: [],
    // What all the tenant's schools share, each reads whole.
    categories: ids('categories', categories),
    score_scales: ids('score_scales', scales),
    line_items: ids(
      'line_items',
      lineItems.filter((l) => classIds.has(l.class_id)),
    ),
    results: ids(
      'results',
      results.filter((r) => classIds.has(r.class_id)),
    ),
    // A whole day's attendance names no class: no school holds it.
    attendance: ids(
      'attendance',
      attendance.filter((a) => classIds.has(a.class_id)),
    ),
    // Assessments are the district's: no school holds one (docs/sso.md).
    assessment_line_items: [],
    assessment_results: [],
  };
}

async function schoolsOfDemo(): Promise<string[]> {
  const { rows } = await walk('classes');
  return [...new Set(rows.map((c) => c.school_id as string))].sort();
}

describe('what one school holds', () => {
  it('is the same whether found whole or asked of each record, in every group', async () => {
    const records = new RecordRepository(api.db, api.tableName);
    const everyId = new Map(
      await Promise.all(
        recordGroups.map(async (group) => [group, ids(group, (await walk(group)).rows)] as const),
      ),
    );
    for (const school of await schoolsOfDemo()) {
      const holdings = new SchoolHoldings([school], records);
      for (const group of recordGroups.filter((g) => !sharedBySchools(g))) {
        // Asked of the records themselves first: the whole set, once found, would answer instead.
        const asked = await new SchoolHoldings([school], records).held(group, everyId.get(group) ?? []);
        const whole = (await holdings.of(group)).ids;
        expect([...asked].sort(), `${group} of ${school}`).toEqual(whole);
      }
    }
  }, 90_000);
});

describe('a client registered with one school', () => {
  it('reads on every native list exactly what the school holds, with the totals and changes to match', async () => {
    const [school] = await schoolsOfDemo();
    const expected = await heldBy(school as string);
    expect(expected.students.length).toBeGreaterThan(5);
    const { client, token } = await scopedClient([school]);
    expect(client.schools).toEqual([school]);
    for (const group of Object.keys(expected) as RecordGroup[]) {
      const { rows, total } = await walk(group, token);
      expect(ids(group, rows), group).toEqual(expected[group]);
      expect(total, group).toBe(expected[group].length);
      const changes = await walk(group, token, '&updated_since=2000-01-01T00:00:00Z');
      expect(ids(group, changes.rows), `${group} changes`).toEqual(expected[group]);
    }
  });

  it('gets a record of its school, answers 404 for one of another, and looks up only within its school', async () => {
    const [mine, other] = await schoolsOfDemo();
    const [held, elsewhere] = await Promise.all([heldBy(mine as string), heldBy(other as string)]);
    const { token } = await scopedClient([mine]);
    const ours = held.students[0] as string;
    const theirs = elsewhere.students.find((id) => !held.students.includes(id)) as string;
    expect((await api.get(`/api/students/${ours}`, { token })).status).toBe(200);
    const refused = await api.get(`/api/students/${theirs}`, { token });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ status: 404 });
    const theirRecord = (await (await api.get(`/api/students/${theirs}`)).json()) as Row;
    const ourRecord = (await (await api.get(`/api/students/${ours}`)).json()) as Row;
    const lookup = async (query: string) =>
      ids('students', (await walk('students', token, `&${query}`)).rows);
    expect(await lookup(`processnumber=${encodeURIComponent(String(theirRecord.processnumber))}`)).toEqual(
      [],
    );
    expect(await lookup(`processnumber=${encodeURIComponent(String(ourRecord.processnumber))}`)).toEqual([
      ours,
    ]);
    const ourClass = held.classes[0] as string;
    const theirClass = elsewhere.classes[0] as string;
    expect((await api.get(`/api/classes/${ourClass}`, { token })).status).toBe(200);
    expect((await api.get(`/api/classes/${theirClass}`, { token })).status).toBe(404);
  });

  it('reads of two schools what either holds', async () => {
    const [first, second] = await schoolsOfDemo();
    const [a, b] = await Promise.all([heldBy(first as string), heldBy(second as string)]);
    const { token } = await scopedClient([first, second]);
    const { rows, total } = await walk('students', token);
    const both = [...new Set([...a.students, ...b.students])].sort();
    expect(ids('students', rows)).toEqual(both);
    expect(total).toBe(both.length);
  });

  it('is told of a student who left its school and of an enrollment deleted there', async () => {
    const [mine, other] = await schoolsOfDemo();
    const [held, elsewhere] = await Promise.all([heldBy(mine as string), heldBy(other as string)]);
    const { token } = await scopedClient([mine]);
    const since = new Date(Date.now() - 1_000).toISOString();
    // A student of another school enrolled in one of its classes comes into its reads...
    const newcomer = (await (
      await api.get(`/api/students/${elsewhere.students.find((id) => !held.students.includes(id))}`)
    ).json()) as Row;
    const enrollment = await createRecord(api, 'enrollments', {
      class_id: held.classes[0],
      entity_id: newcomer.entity_id,
      role: 'student',
      primary: false,
      begin_date: null,
      end_date: null,
    });
    expect((await api.get(`/api/students/${newcomer.student_id}`, { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const joined = await walk('students', token, `&updated_since=${since}`);
    expect(ids('students', joined.rows)).toContain(newcomer.student_id);
    // ...and once that enrollment ends, the student and the enrollment are gone for it.
    await removeRecord(api, 'enrollments', enrollment.enrollment_id);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await api.get(`/api/students/${newcomer.student_id}`, { token })).status).toBe(404);
    const deleted = async (group: RecordGroup) => {
      const response = await api.get(`/api/${group}/deleted?since=${since}`, { token });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { deleted: Row[] }).deleted.map((d) => d[idField[group]]);
    };
    expect(await deleted('students')).toEqual([newcomer.student_id]);
    expect(await deleted('enrollments')).toEqual([enrollment.enrollment_id]);
    expect(await deleted('classes')).toEqual([]);
    // The administrator's feed of the same window has nothing about students: none was deleted.
    const adminDeleted = (await (await api.get(`/api/students/deleted?since=${since}`)).json()) as {
      deleted: Row[];
    };
    expect(adminDeleted.deleted).toEqual([]);
  });
});

const oneRoster = '/ims/oneroster/rostering/v1p2';
const rosterCore = 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly';
const rosterNested = 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly';

/** Every object of a OneRoster collection, by offset pages, with the first page's X-Total-Count. */
async function walkRoster(path: string, key: string, token?: string) {
  const objects: Row[] = [];
  let total: string | null = null;
  for (let offset = 0; ; offset += 100) {
    const glue = path.includes('?') ? '&' : '?';
    const response = await api.get(
      `${oneRoster}${path}${glue}limit=100&offset=${offset}`,
      token ? { token } : {},
    );
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    if (offset === 0) total = response.headers.get('x-total-count');
    const page = ((await response.json()) as Record<string, Row[]>)[key] as Row[];
    objects.push(...page);
    if (page.length < 100) break;
  }
  return { ids: objects.map((o) => o.sourcedId as string).sort(), objects, total };
}

describe('over OneRoster, a client registered with one school', () => {
  it('reads what the administrator reads of that school, and nothing of another', async () => {
    const [school, other] = await schoolsOfDemo();
    const held = await heldBy(school as string);
    const { token } = await scopedClient([school], [rosterCore, rosterNested]);
    const students = (await walk('students')).rows;
    const teachers = (await walk('teachers')).rows;
    const persons = new Set(held.entities);
    const withRole = (rows: Row[]) =>
      [...new Set(rows.map((r) => r.entity_id as string))].filter((id) => persons.has(id)).sort();

    const classes = await walkRoster('/classes', 'classes', token);
    expect(classes.ids).toEqual(held.classes);
    expect(classes.total).toBe(String(held.classes.length));
    // The administrator's read of the school's own collections is the client's whole read.
    expect((await walkRoster(`/schools/${school}/classes`, 'classes')).ids).toEqual(classes.ids);
    expect((await walkRoster('/enrollments', 'enrollments', token)).ids).toEqual(held.enrollments);
    expect((await walkRoster(`/schools/${school}/enrollments`, 'enrollments')).ids).toEqual(held.enrollments);
    expect((await walkRoster('/courses', 'courses', token)).ids).toEqual(held.courses);
    expect((await walkRoster('/academicSessions', 'academicSessions', token)).ids).toEqual(
      held.academic_sessions,
    );
    const learners = await walkRoster('/students', 'users', token);
    expect(learners.ids).toEqual(withRole(students));
    expect((await walkRoster(`/schools/${school}/students`, 'users')).ids).toEqual(
      learners.ids.filter((id) => withRole(students).includes(id)),
    );
    expect((await walkRoster('/teachers', 'users', token)).ids).toEqual(withRole(teachers));
    const users = await walkRoster('/users', 'users', token);
    expect(users.ids).toEqual(held.entities.filter((id) => id !== school));
    expect(users.total).toBe(String(users.ids.length));
    // A sort reads what the schools hold whole, and a delta walks it: the same users either way.
    expect((await walkRoster('/users?sort=familyName', 'users', token)).ids).toEqual(users.ids);
    const delta = encodeURIComponent("dateLastModified>'2000-01-01T00:00:00Z'");
    expect((await walkRoster(`/users?filter=${delta}`, 'users', token)).ids).toEqual(users.ids);
    expect((await walkRoster('/schools', 'orgs', token)).ids).toEqual([school]);
    expect((await walkRoster('/orgs', 'orgs', token)).ids).toEqual([school]);

    const elsewhere = await heldBy(other as string);
    const theirStudent = students.find((s) => !persons.has(s.entity_id as string))?.entity_id;
    for (const path of [
      `/classes/${elsewhere.classes[0]}`,
      `/users/${theirStudent}`,
      `/schools/${other}`,
      `/schools/${other}/students`,
      `/classes/${elsewhere.classes[0]}/students`,
      `/enrollments/${elsewhere.enrollments[0]}`,
    ]) {
      const response = await api.get(`${oneRoster}${path}`, { token });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ imsx_codeMajor: 'failure' });
    }
    const mine = await api.get(`${oneRoster}/classes/${held.classes[0]}`, { token });
    expect(mine.status).toBe(200);
    await mine.body?.cancel();
  });

  it('counts on /api/system what its schools hold', async () => {
    const [school] = await schoolsOfDemo();
    const held = await heldBy(school as string);
    const { token } = await scopedClient([school], ['system:read']);
    const response = await api.get('/api/system', { token });
    expect(response.status).toBe(200);
    const { counts } = (await response.json()) as { counts: Record<string, number> };
    expect(counts).toEqual(
      Object.fromEntries(Object.entries(held).map(([group, ids]) => [group, ids.length])),
    );
  });
});

describe('writes of a client registered with one school', () => {
  const writeScopes = [...readScopes, 'classes:write', 'enrollments:write', 'students:write'];

  it('creates classes and enrollments in its school, and refuses them elsewhere with nothing written', async () => {
    const [mine, other] = await schoolsOfDemo();
    const held = await heldBy(mine as string);
    const { token } = await scopedClient([mine], writeScopes);
    const template = (await (await api.get(`/api/classes/${held.classes[0]}`)).json()) as Row;
    const { class_id: _id, created_at: _c, updated_at: _u, ...fields } = template;
    const created = await api.send(
      'POST',
      '/api/classes',
      { ...fields, title: 'Clube de xadrez' },
      { token },
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const before = (await walk('classes')).total;
    const elsewhere = await api.send(
      'POST',
      '/api/classes',
      { ...fields, title: 'Noutra escola', school_id: other },
      { token },
    );
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toMatchObject({
      status: 403,
      errors: [{ name: 'school_id', in: 'body' }],
    });
    const moved = await api.send(
      'PUT',
      `/api/classes/${held.classes[0]}`,
      { ...fields, school_id: other },
      { token },
    );
    expect(moved.status).toBe(403);
    const learner = held.entities.find((id) => id !== mine);
    const enrollment = {
      entity_id: learner,
      role: 'teacher',
      primary: false,
      begin_date: null,
      end_date: null,
    };
    const enrolled = await api.send(
      'POST',
      '/api/enrollments',
      { ...enrollment, class_id: held.classes[1] },
      { token },
    );
    expect(enrolled.status, await enrolled.clone().text()).toBe(201);
    const theirClass = (await heldBy(other as string)).classes[0];
    const enrolledElsewhere = await api.send(
      'POST',
      '/api/enrollments',
      { ...enrollment, class_id: theirClass },
      { token },
    );
    expect(enrolledElsewhere.status).toBe(403);
    expect(await enrolledElsewhere.json()).toMatchObject({ errors: [{ name: 'class_id', in: 'body' }] });
    const student = await api.send('POST', '/api/students', personBody('S'), { token });
    expect(student.status).toBe(403);
    expect((await walk('classes')).total).toBe(before);
    const removed = await api.send('DELETE', `/api/classes/${theirClass}`, undefined, { token });
    expect(removed.status).toBe(404);
    expect((await api.get(`/api/classes/${theirClass}`)).status).toBe(200);
  });

  it('reads the gradebook setup all schools share, and changes none of it', async () => {
    const [mine] = await schoolsOfDemo();
    const { token } = await scopedClient(
      [mine],
      [...readScopes, 'gradebook:write', oneRosterScopes.gradebookCore],
    );
    const { rows: categories } = await walk('categories');
    const [category] = categories;
    const { category_id: id, created_at: _c, updated_at: _u, ...fields } = category as Row;
    expect((await api.get(`/api/categories/${id}`, { token })).status).toBe(200);
    // Over OneRoster too: every category, and each by its sourcedId.
    const listed = await api.get('/ims/oneroster/gradebook/v1p2/categories?limit=100', { token });
    expect(((await listed.json()) as { categories: Row[] }).categories.map((c) => c.sourcedId)).toEqual(
      categories.map((c) => c.category_id).sort(),
    );
    expect((await api.get(`/ims/oneroster/gradebook/v1p2/categories/${id}`, { token })).status).toBe(200);
    const replaced = await api.send('PUT', `/api/categories/${id}`, { ...fields, weight: 9 }, { token });
    expect(replaced.status).toBe(403);
    expect(await replaced.json()).toMatchObject({ status: 403 });
    const created = await api.send('POST', '/api/categories', fields, { token });
    expect(created.status).toBe(403);
    expect((await api.send('DELETE', `/api/categories/${id}`, undefined, { token })).status).toBe(403);
    expect(await (await api.get(`/api/categories/${id}`)).json()).toEqual(category);
  });
});

describe('registering schools', () => {
  it('refuses an id that is not an organisation, naming it, and registers nothing', async () => {
    const before = ((await (await api.get('/api/admin/clients')).json()) as { clients: unknown[] }).clients
      .length;
    const { rows } = await walk('students');
    const response = await api.send('POST', '/api/admin/clients', {
      name: 'Wrong school',
      scopes: ['students:read'],
      schools: [rows[0]?.entity_id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: [
        { name: 'schools[0]', in: 'body' },
        { name: 'schools[1]', in: 'body' },
      ],
    });
    const empty = await api.send('POST', '/api/admin/clients', {
      name: 'No school',
      scopes: ['students:read'],
      schools: [],
    });
    expect(empty.status).toBe(400);
    const after = ((await (await api.get('/api/admin/clients')).json()) as { clients: unknown[] }).clients
      .length;
    expect(after).toBe(before);
  });

  it('applies a replaced list of schools at once', async () => {
    const [first, second] = await schoolsOfDemo();
    const { client, token } = await scopedClient([first]);
    const b = await heldBy(second as string);
    const replaced = await api.send('PUT', `/api/admin/clients/${client.client_id}`, {
      name: client.name,
      scopes: client.scopes,
      schools: [second],
    });
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(ids('classes', (await walk('classes', token)).rows)).toEqual(b.classes);
    const everything = await api.send('PUT', `/api/admin/clients/${client.client_id}`, {
      name: client.name,
      scopes: client.scopes,
    });
    expect(everything.status).toBe(200);
    expect((await walk('classes', token)).total).toBe((await walk('classes')).total);
  });
});
