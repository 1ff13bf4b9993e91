// The OneRoster collections read a page at a time (docs/oneroster.md, "What each request reads"): the
// users, students and teachers from their listings (docs/data-model.md), the classes, courses and
// enrollments from their groups' partitions, with `after` in the next link. Over HTTP against DynamoDB
// Local: the listings follow every write that changes them, a page reads what it holds whatever the
// group's size, and a table from before the listings gets them from `records list-again`.
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedDemoRecords } from '../infra/local/bootstrap';
import { keys } from '../shared/data/keys';
import { listedGroups } from '../shared/data/listings';
import { reportReadCapacity } from '../shared/data/read-capacity';
import { tableDesign } from '../shared/data/table';
import { runAdminOn } from './support/admin-run';
import { organisationBody, personBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

const BASE = '/ims/oneroster/rostering/v1p2';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Obj = { sourcedId: string } & Record<string, unknown>;

/** The Link header's addresses, by relation. */
function linksOf(response: Response): Record<string, string> {
  const header = response.headers.get('link') ?? '';
  return Object.fromEntries(
    [...header.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map(([, url, rel]) => [rel as string, url as string]),
  );
}

/** Every object of a collection by following its next links, with each page's total and next link. */
async function walk(path: string, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  const nexts: string[] = [];
  let next: string | undefined = `${api.url}${BASE}${path}?limit=${limit}`;
  while (next) {
    const response = await api.get(next.slice(api.url.length));
    expect(response.status, next).toBe(200);
    totals.add(Number(response.headers.get('x-total-count')));
    const body = (await response.json()) as Record<string, Obj[]>;
    ids.push(...(Object.values(body)[0] as Obj[]).map((o) => o.sourcedId));
    next = linksOf(response).next;
    if (next) nexts.push(next);
  }
  return { ids, totals: [...totals], nexts };
}

/** The collection as the whole-collection reading gives it (sorted by sourcedId explicitly), by offset. */
async function whole(path: string) {
  const ids: string[] = [];
  let next: string | undefined = `${api.url}${BASE}${path}?limit=1000&sort=sourcedId&orderBy=desc`;
  while (next) {
    const response = await api.get(next.slice(api.url.length));
    const body = (await response.json()) as Record<string, Obj[]>;
    ids.push(...(Object.values(body)[0] as Obj[]).map((o) => o.sourcedId));
    next = linksOf(response).next;
  }
  return ids.reverse();
}

async function total(path: string) {
  const response = await api.get(`${BASE}${path}?limit=1`);
  return Number(response.headers.get('x-total-count'));
}

describe('collections read a page at a time', () => {
  it('walk by after to what the whole collection holds, in sourcedId order, with one total', async () => {
    const schools = (await (await api.get(`${BASE}/schools?limit=1`)).json()) as { orgs: Obj[] };
    const school = `/schools/${schools.orgs[0]?.sourcedId}`;
    const classes = (await (await api.get(`${BASE}/classes?limit=1`)).json()) as { classes: Obj[] };
    const [first] = classes.classes as (Obj & { course: Obj; terms: Obj[] })[];
    for (const path of [
      `/classes/${first?.sourcedId}/students`,
      `/courses/${first?.course.sourcedId}/classes`,
      `/terms/${first?.terms[0]?.sourcedId}/classes`,
      `${school}/students`,
      `${school}/teachers`,
      `${school}/enrollments`,
      `${school}/classes`,
      `${school}/courses`,
      '/users',
      '/students',
      '/teachers',
      '/demographics',
      '/classes',
      '/courses',
      '/enrollments',
    ]) {
      const walked = await walk(path, 25);
      const everything = await whole(path);
      expect(walked.ids, path).toEqual(everything);
      expect(walked.totals, path).toEqual([everything.length]);
      for (const next of walked.nexts)
        expect(new URL(next).searchParams.get('after'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('skip to an offset without after, from either end, and agree with the walk', async () => {
    for (const path of ['/students', '/users', '/classes', '/enrollments']) {
      const everything = await whole(path);
      const middle = Math.floor(everything.length / 2);
      for (const offset of [
        1,
        49,
        middle,
        middle + 1,
        everything.length - 1,
        everything.length,
        everything.length + 5,
      ]) {
        const response = await api.get(`${BASE}${path}?limit=7&offset=${offset}`);
        const body = (await response.json()) as Record<string, Obj[]>;
        expect(
          (Object.values(body)[0] as Obj[]).map((o) => o.sourcedId),
          `${path} offset ${offset}`,
        ).toEqual(everything.slice(offset, offset + 7));
        expect(Number(response.headers.get('x-total-count')), path).toBe(everything.length);
      }
    }
  });

  it('read about a page, not the group: a page of 5 users costs a fraction of the whole', async () => {
    const consumed: number[] = [];
    const { createDocumentClient } = await import('../shared/data/document-client');
    const { ListingRepository } = await import('../shared/data/listing-repository');
    const { RecordRepository } = await import('../shared/data/record-repository');
    const { RosterReader } = await import('../shared/oneroster/roster-reader');
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    reportReadCapacity(db, (c) => consumed.push(c.CapacityUnits ?? 0));
    const reader = new RosterReader(
      new RecordRepository(db, api.tableName),
      new ListingRepository(db, api.tableName),
      0,
    );
    const sum = () => consumed.splice(0).reduce((a, b) => a + b, 0);
    const first = await reader.peoplePage('users', { limit: 5, offset: 0, after: undefined });
    const firstCost = sum();
    const later = await reader.peoplePage('users', { limit: 5, offset: 0, after: first.next });
    const laterCost = sum();
    await reader.all('entities');
    const wholeCost = sum();
    expect(later.entityIds).toHaveLength(5);
    expect(laterCost).toBeLessThanOrEqual(firstCost * 1.1);
    expect(firstCost * 10).toBeLessThan(wholeCost);
    db.destroy();
  });
});

describe('a filtered collection in sourcedId order', () => {
  /** Every object the filter selects, by following next links; the pages after the first that go on have no total. */
  async function walkFiltered(path: string, filter: string, limit: number) {
    const ids: string[] = [];
    const totals: (string | null)[] = [];
    let next: string | undefined =
      `${api.url}${BASE}${path}?limit=${limit}&filter=${encodeURIComponent(filter)}`;
    while (next) {
      const response = await api.get(next.slice(api.url.length));
      expect(response.status, next).toBe(200);
      const body = (await response.json()) as Record<string, Obj[]>;
      ids.push(...(Object.values(body)[0] as Obj[]).map((o) => o.sourcedId));
      const continued = new URL(next).searchParams.has('after');
      next = linksOf(response).next;
      if (next) expect(new URL(next).searchParams.get('after'), path).toMatch(/^[0-9a-f-]{36}$/);
      // The first page counts the walk (a small one); a page after it knows the total only at the end.
      totals.push(response.headers.get('x-total-count'));
      if (continued && next) expect(totals.at(-1), path).toBeNull();
    }
    expect([totals[0], totals.at(-1)], path).toEqual([String(ids.length), String(ids.length)]);
    return ids;
  }

  it('is walked by after to what the whole read selects, in sourcedId order, the last page with the total', async () => {
    for (const [path, filter] of [
      ['/users', "givenName~'a'"],
      ['/students', "familyName~'s' AND enabledUser='true'"],
      ['/teachers', "status='active'"],
      ['/demographics', "sex='female'"],
      ['/enrollments', "role='teacher'"],
      ['/classes', "title~'a'"],
      ['/courses', "title~'e'"],
    ] as const) {
      const walked = await walkFiltered(path, filter, 9);
      const reference = await api.get(
        `${BASE}${path}?limit=1000&sort=sourcedId&orderBy=desc&filter=${encodeURIComponent(filter)}`,
      );
      const selected = (Object.values((await reference.json()) as Record<string, Obj[]>)[0] as Obj[])
        .map((o) => o.sourcedId)
        .reverse();
      expect(walked, path).toEqual(selected);
      expect(walked.length, path).toBeGreaterThan(9);
    }
    // Seven walks of nine-record pages, each beside a thousand-record read: 12 s alone, past 30 s beside the suite.
  }, 120_000);
});

describe('the listings follow the writes', () => {
  it('count a person once they have a role, and not an organisation or a person without one', async () => {
    const [users, students, orgs] = await Promise.all([total('/users'), total('/students'), total('/orgs')]);
    const org = await api.send('POST', '/api/entities', organisationBody());
    expect(org.status).toBe(201);
    const person = await api.send('POST', '/api/entities', { ...organisationBody(), entity_type: 'person' });
    expect(person.status, await person.clone().text()).toBe(201);
    const entityId = ((await person.json()) as { entity_id: string }).entity_id;
    expect([await total('/users'), await total('/orgs')]).toEqual([users, orgs + 1]);
    expect(await walk('/users', 50).then((w) => w.ids)).not.toContain(entityId);

    const student = await api.send('POST', '/api/students', { ...personBody(), entity_id: entityId });
    expect(student.status, await student.clone().text()).toBe(201);
    const studentId = ((await student.json()) as { student_id: string }).student_id;
    expect([await total('/users'), await total('/students')]).toEqual([users + 1, students + 1]);
    const walked = await walk('/students', 40);
    expect(walked.ids).toContain(entityId);
    expect(walked.ids).toEqual([...walked.ids].sort());

    expect((await api.send('DELETE', `/api/students/${studentId}`)).status).toBe(204);
    expect([await total('/users'), await total('/students')]).toEqual([users, students]);
    expect(await walk('/users', 50).then((w) => w.ids)).not.toContain(entityId);
  });
});

describe("a course's and a term's classes", () => {
  type Row = Record<string, unknown>;
  const classesOf = async (path: string) => (await walk(path, 50)).ids;

  it('follow the class as it is made, moved to another course and terms, and deleted', async () => {
    const { classes } = (await (await api.get('/api/classes?items_per_page=500')).json()) as {
      classes: Row[];
    };
    const { courses } = (await (await api.get('/api/courses?items_per_page=2')).json()) as { courses: Row[] };
    const { academic_sessions: sessions } = (await (
      await api.get('/api/academic_sessions?items_per_page=500')
    ).json()) as { academic_sessions: Row[] };
    const terms = sessions.filter((s) => s.type === 'term').map((s) => s.academic_session_id as string);
    const [from, to] = courses.map((c) => c.course_id as string) as [string, string];
    const model = classes.find((c) => c.course_id !== to) as Row;
    const made = await api.send('POST', '/api/classes', {
      title: 'Ciências 9.º Z',
      class_code: 'CIE9-Z',
      class_type: 'scheduled',
      course_id: from,
      school_id: model.school_id,
      term_ids: terms.slice(0, 2),
      periods: ['1'],
      location: 'Laboratório',
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const record = (await made.json()) as Row;
    const id = record.class_id as string;
    expect(await classesOf(`/courses/${from}/classes`)).toContain(id);
    for (const term of terms.slice(0, 2)) expect(await classesOf(`/terms/${term}/classes`)).toContain(id);

    const { class_id, created_at, updated_at, ...fields } = record;
    const moved = await api.send(
      'PUT',
      `/api/classes/${id}`,
      { ...fields, course_id: to, term_ids: terms.slice(1, 3) },
      { headers: { 'if-match': made.headers.get('etag') ?? '' } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await classesOf(`/courses/${from}/classes`)).not.toContain(id);
    expect(await classesOf(`/courses/${to}/classes`)).toContain(id);
    expect(await classesOf(`/terms/${terms[0]}/classes`)).not.toContain(id);
    for (const term of terms.slice(1, 3)) expect(await classesOf(`/terms/${term}/classes`)).toContain(id);

    expect((await api.send('DELETE', `/api/classes/${id}`)).status).toBe(204);
    for (const path of [`/courses/${to}/classes`, ...terms.slice(0, 3).map((t) => `/terms/${t}/classes`)])
      expect(await classesOf(path), path).not.toContain(id);
  });

  it('are read from the keys filed under the course, not from the classes partition', async () => {
    const queried: string[] = [];
    const capacity: number[] = [];
    const { classes } = (await (await api.get(`${BASE}/classes?limit=1`)).json()) as {
      classes: (Obj & { course: Obj })[];
    };
    const course = classes[0]?.course.sourcedId as string;
    const { createDocumentClient } = await import('../shared/data/document-client');
    const { RecordRepository } = await import('../shared/data/record-repository');
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    reportReadCapacity(db, (c) => capacity.push(c.CapacityUnits ?? 0));
    db.middlewareStack.add(
      (next) => async (args) => {
        const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> })
          .ExpressionAttributeValues;
        queried.push(String(values?.[':pk']));
        return next(args);
      },
      { step: 'initialize' },
    );
    const ids = await new RecordRepository(db, api.tableName).idsFiledUnder('classes', 'course_id', course);
    expect(ids).toContain(classes[0]?.sourcedId);
    expect(ids).toEqual([...ids].sort());
    expect(queried).toEqual([keys.referrerPartition('classes')]);
    // Some 60 bytes a class: a course's classes are one read unit until it has about seventy.
    expect(capacity).toEqual([1]);
    db.destroy();
  });
});

describe('after', () => {
  it('is refused with 400 invaliddata where it cannot continue a walk, before anything is read', async () => {
    const someone = '00000000-0000-4000-8000-000000000000';
    for (const query of [
      'after=nope',
      `after=${encodeURIComponent(`2026-01-01T00:00:00Z#${someone}`)}&filter=${encodeURIComponent("givenName='A'")}`,
      `after=${someone}&sort=familyName`,
      `after=${someone}&orderBy=desc`,
    ]) {
      const response = await api.get(`${BASE}/users?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toMatchObject({
        imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldValue: 'invaliddata' }] },
      });
    }
    const nested = await api.get(`${BASE}/academicSessions?after=${someone}`);
    expect(nested.status).toBe(400);
  });
  it('files the classes of a table from before their filing under their courses and terms, at the next local start and by the command', async () => {
    const { classes } = (await (await api.get(`${BASE}/classes?limit=1`)).json()) as {
      classes: (Obj & { course: Obj; terms: Obj[] })[];
    };
    const paths = [
      `/courses/${classes[0]?.course.sourcedId}/classes`,
      `/terms/${classes[0]?.terms[0]?.sourcedId}/classes`,
    ];
    const before = await Promise.all(paths.map((path) => walk(path, 50)));
    const unfile = async () => {
      const { Items = [] } = await api.db.send(
        new QueryCommand({
          TableName: api.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.referrerPartition('classes') },
        }),
      );
      expect(Items.length).toBeGreaterThan(0);
      for (const { pk, sk } of Items)
        await api.db.send(new DeleteCommand({ TableName: api.tableName, Key: { pk, sk } }));
      for (const path of paths) expect((await walk(path, 50)).ids, path).toEqual([]);
    };

    await unfile();
    // The seed marker as a version that filed no classes wrote it.
    await api.db.send(
      new UpdateCommand({ TableName: api.tableName, Key: keys.seedMarker, UpdateExpression: 'REMOVE filed' }),
    );
    const said: string[] = [];
    expect(await seedDemoRecords(api.db, api.tableName, (line) => said.push(line))).toBe(false);
    expect(said).toEqual(['Filing the classes kept in this table under what they name (once)']);
    expect(await Promise.all(paths.map((path) => walk(path, 50)))).toEqual(before);

    await unfile();
    const { code, stdout: out } = await runAdminOn(api, ['records', 'list-again']);
    expect(code, out).toBe(0);
    expect(out).toMatch(/Filed \d+ record\(s\) under what they name/);
    expect(await Promise.all(paths.map((path) => walk(path, 50)))).toEqual(before);
  });
});

/** Takes these records' listing entries away, as a table from before their listing holds them. */
async function unlist(items: Record<string, unknown>[]) {
  const { partitionKey, sortKey } = tableDesign.listingsIndex;
  for (const item of items) {
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'REMOVE #lp, #ls',
        ExpressionAttributeNames: { '#lp': partitionKey, '#ls': sortKey },
      }),
    );
  }
}

describe('records list-again', () => {
  it('gives the records of a table from before the listings their entries back', async () => {
    const before = await walk('/users', 200);
    const { Items = [] } = await api.db.send(
      new QueryCommand({
        TableName: api.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'REC#entities' },
        Limit: 40,
      }),
    );
    await unlist(Items);
    expect((await walk('/users', 200)).ids.length).toBeLessThan(before.ids.length);
    const { code, stdout: out } = await runAdminOn(api, ['records', 'list-again']);
    expect(code, out).toBe(0);
    expect(out).toContain(`Listed ${Items.length} record(s) again`);
    expect((await walk('/users', 200)).ids).toEqual(before.ids);
  });

  it('gives a table seeded before its courses were listed their entries at the next local start, once', async () => {
    const schools = (await (await api.get(`${BASE}/schools?limit=100`)).json()) as { orgs: Obj[] };
    const paths = schools.orgs.map((o) => `/schools/${o.sourcedId}/courses`);
    const before = await Promise.all(paths.map((path) => walk(path, 50)));
    expect(before.flatMap((w) => w.ids).length).toBeGreaterThan(0);
    const { Items = [] } = await api.db.send(
      new QueryCommand({
        TableName: api.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'REC#courses' },
      }),
    );
    await unlist(Items);
    // The seed marker as a version that listed no courses wrote it.
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: keys.seedMarker,
        UpdateExpression: 'SET listed = :listed',
        ExpressionAttributeValues: { ':listed': listedGroups.filter((g) => g !== 'courses') },
      }),
    );
    expect((await walk(paths[0] as string, 50)).ids).toEqual([]);
    const said: string[] = [];
    expect(await seedDemoRecords(api.db, api.tableName, (line) => said.push(line))).toBe(false);
    expect(said).toEqual(['Listing the courses kept in this table, as this version lists them (once)']);
    expect(await Promise.all(paths.map((path) => walk(path, 50)))).toEqual(before);
    said.length = 0;
    await seedDemoRecords(api.db, api.tableName, (line) => said.push(line));
    expect(said).toEqual([]);
  });
});
