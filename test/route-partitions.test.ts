// Every route's handler, run over HTTP against DynamoDB, touches only the table partitions its deployed
// function is granted (`partitionsRead`, `writes`, `partitionsCounted`), and only with the actions it is granted: a wrong row
// in the route table fails here instead of as AccessDenied in a deployed tenant. Reads run with a client's
// token and with people's tokens, which read their own records to learn what they may read.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DEMO_APP_ID,
  DEMO_CLIENT_ID,
  DEMO_REDIRECT_URIS,
  demoPostLogoutUris,
} from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD, type LocalRun, startLocalRun } from '../infra/local/local-run';
import { partlyWritten } from '../shared/auth/roles';
import { ofOneClass, SchoolHoldings, sharedBySchools } from '../shared/auth/school-scope';
import { base32Decode, base32Encode, totp } from '../shared/auth/totp';
import { createDocumentClient } from '../shared/data/document-client';
import { keys } from '../shared/data/keys';
import { isStudentWork } from '../shared/data/listings';
import { RecordRepository } from '../shared/data/record-repository';
import { UserRepository } from '../shared/data/user-repository';
import { WebhookRepository } from '../shared/data/webhook-repository';
import {
  groups,
  idFields,
  isRecordGroup,
  oneRosterScopes,
  type RecordGroup,
  readScope,
  recordGroups,
  writeScope,
} from '../shared/domain/groups';
import type { Route } from '../shared/route';
import { fallbackRoute, partitionsCounted, partitionsRead, routes } from '../shared/routes';
import { arrangeCode, exchangeCode, refresh } from './support/authorization-codes';
import { documentBody, organisationBody, personBody } from './support/fixtures';
import { expectTokens, postForm } from './support/oauth';
import { rosterSamples } from './support/oneroster-samples';
import { personTokens } from './support/person-token';
import { type RecordedCall, startRecordingProxy } from './support/recording-proxy';

const SECRET = 'partitions-secret';
const READS = ['GetItem', 'BatchGetItem', 'Query'];
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'];
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let run: LocalRun;
let token: string;
/** Tokens of the demo accounts, minted without going through the proxy. */
const direct = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
let personToken: (username: string) => Promise<string>;
const tableName = `school-partitions-${randomUUID().slice(0, 8)}`;
/** The audit events go to a file, as in the local run: on standard output they would flood the test output. */
const auditLogFile = join(tmpdir(), `${tableName}-audit.log`);

/** Every POST carries an Idempotency-Key, so its kept response is among what the route touches. */
const send = (method: string, path: string, body?: unknown, bearer = token) =>
  fetch(`${run.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

async function json(response: Response, status: number): Promise<Record<string, unknown>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const routeOf = (id: string) => routes.find((r) => r.id === id) as Route;

/** Runs a request and checks every DynamoDB call it made against what the route is granted. */
async function expectWithinGrant(route: Route, request: () => Promise<unknown>) {
  proxy.take();
  await request();
  const calls = proxy.take();
  const counted = partitionsCounted(route);
  for (const call of calls) {
    // The rate limit's counters take UpdateItem alone, on their own partitions.
    const counting = call.operation === 'UpdateItem' && call.partitions.every((p) => counted.includes(p));
    const granted = counting
      ? counted
      : WRITES.includes(call.operation)
        ? route.writes
        : partitionsRead(route);
    expect(
      [...READS, ...(route.writes.length > 0 ? WRITES : []), ...(counted.length > 0 ? ['UpdateItem'] : [])],
      `${route.id} ${call.operation}`,
    ).toContain(call.operation);
    for (const partition of call.partitions)
      expect(granted, `${route.id} ${call.operation}`).toContain(partition);
  }
  return calls;
}

/** Requests made through `track`, each checked within its route's grant, and the calls each route made. */
function tracker() {
  const calls = new Map<string, RecordedCall[]>();
  const track = async <T>(id: string, request: () => Promise<T>): Promise<T> => {
    let result: T | undefined;
    const made = await expectWithinGrant(routeOf(id), async () => {
      result = await request();
    });
    calls.set(id, [...(calls.get(id) ?? []), ...made]);
    return result as T;
  };
  return { calls, track };
}

let schoolToken: Promise<string> | undefined;
let clientSchool: string | undefined;
/**
 * The token of a client registered with one school (docs/sso.md, "School scoping"), which reads and
 * writes with every record scope and OneRoster's: it first finds what the school holds.
 */
function schoolClientToken(): Promise<string> {
  schoolToken ??= (async () => {
    const school = (
      (await json(await send('GET', '/api/classes?items_per_page=1'), 200)).classes as Record<
        string,
        string
      >[]
    )[0]?.school_id;
    clientSchool = school;
    const scopes = [
      ...new Set(recordGroups.flatMap((g) => [readScope(g), writeScope(g)])),
      'system:read',
      ...Object.values(oneRosterScopes),
    ];
    const registered = (await json(
      await send('POST', '/api/admin/clients', { name: 'One school', scopes, schools: [school] }),
      201,
    )) as { client: { client_id: string }; secret: { secret: string } };
    const issued = await expectTokens(
      await postForm(run, 'token', {
        grant_type: 'client_credentials',
        client_id: registered.client.client_id,
        client_secret: registered.secret.secret,
      }),
    );
    return issued.access_token;
  })();
  return schoolToken;
}

/**
 * The id of a record the school client's school does not hold, whose check reads what the route may: for
 * an entity, a guardian of another school's students (SchoolHoldings.held goes through their students).
 */
async function outsideSchool(group: RecordGroup): Promise<string> {
  // The demo's attendance is whole days, which no school holds: one is made in another school's class.
  if (group === 'attendance') {
    const classes = (await json(await send('GET', '/api/classes?items_per_page=100'), 200)).classes as Record<
      string,
      string
    >[];
    const theirs = classes.find((c) => c.school_id !== clientSchool) as Record<string, string>;
    const [student] = (await json(await send('GET', '/api/students?items_per_page=1'), 200))
      .students as Record<string, string>[];
    const mark = {
      class_id: theirs.class_id,
      student_id: student?.student_id,
      date: '2026-12-15',
      status: 'present',
    };
    return (await json(await send('POST', '/api/attendance', mark), 201)).attendance_id as string;
  }
  const source = group === 'entities' ? 'tutors' : group;
  const holdings = new SchoolHoldings([clientSchool as string], new RecordRepository(direct, run.tableName));
  const held = new Set((await holdings.of(source)).ids);
  const rows = (await json(await send('GET', `/api/${source}?items_per_page=100`), 200))[source] as Record<
    string,
    string
  >[];
  const other = rows.find((r) => !held.has(r[idFields[source]] as string));
  if (other) return other[group === 'entities' ? 'entity_id' : idFields[group]] as string;
  // Every one of them is there (the demo's teachers teach in every school): one is made for another school.
  const classes = (await json(await send('GET', '/api/classes?items_per_page=100'), 200)).classes as Record<
    string,
    string
  >[];
  const theirs = classes.find((c) => c.school_id !== clientSchool) as Record<string, string>;
  const made = await json(await send('POST', `/api/${group}`, personBody()), 201);
  const person = { entity_id: made.entity_id, role: group === 'students' ? 'student' : 'teacher' };
  await json(await send('POST', '/api/enrollments', { ...person, class_id: theirs.class_id }), 201);
  return made[idFields[group]] as string;
}

/**
 * Records to name: two sessions, two school years, schools, courses, classes, categories, score scales,
 * grading periods, and a person.
 */
async function rosterIds() {
  const ids = async (group: RecordGroup, query = 'items_per_page=2') =>
    ((await json(await send('GET', `/api/${group}?${query}`), 200))[group] as Record<string, string>[]).map(
      (r) => r[idFields[group]] as string,
    );
  const organisations = (
    (await json(await send('GET', '/api/entities?items_per_page=500'), 200)).entities as Record<
      string,
      string
    >[]
  ).filter((e) => e.org_type === 'school');
  const people = (
    (await json(await send('GET', '/api/entities?items_per_page=500'), 200)).entities as Record<
      string,
      string
    >[]
  ).filter((e) => e.entity_type === 'person');
  const sessions = (await json(await send('GET', '/api/academic_sessions?items_per_page=500'), 200))
    .academic_sessions as Record<string, string>[];
  // A second school year, so that a category's replace names another.
  const nextYear = await json(
    await send('POST', '/api/academic_sessions', {
      title: 'Ano letivo de teste',
      type: 'school_year',
      start_date: '2027-09-13',
      end_date: '2028-06-30',
      school_year: '2028',
    }),
    201,
  );
  const roster = {
    sessions: await ids('academic_sessions'),
    schoolYears: [
      sessions.find((s) => s.type === 'school_year')?.academic_session_id as string,
      nextYear.academic_session_id as string,
    ],
    schools: organisations.map((e) => e.entity_id as string),
    courses: await ids('courses'),
    classes: await ids('classes'),
    categories: await ids('categories'),
    // The tenant's scales, which any class's line items may be on.
    scales: (
      (await json(await send('GET', '/api/score_scales?items_per_page=500'), 200)).score_scales as Record<
        string,
        string | null
      >[]
    )
      .filter((s) => s.class_id === null)
      .map((s) => s.score_scale_id as string),
    gradingPeriods: sessions.filter((s) => s.type === 'grading_period').map((s) => s.academic_session_id),
    person: people[0]?.entity_id as string,
    assessments: await ids('assessment_line_items'),
  };
  // An assessment of a class, in which no student has a result yet.
  const assessment = await json(
    await send('POST', '/api/assessment_line_items', {
      title: 'Prova de teste',
      class_id: roster.classes[0],
      result_value_max: 100,
    }),
    201,
  );
  return {
    ...roster,
    lineItem: await newLineItem(roster.classes[0] as string, roster),
    assessment: assessment.assessment_line_item_id as string,
  };
}

/** Student records of people enrolled in a class as students: records about them are of its school. */
async function studentsOfClass(classId: string): Promise<Record<string, string>[]> {
  const enrollments = await new RecordRepository(direct, run.tableName).enrollmentsOfClass(classId);
  const enrolled = new Set(enrollments.filter((e) => e.role === 'student').map((e) => e.entity_id));
  const students = (await json(await send('GET', '/api/students?items_per_page=500'), 200))
    .students as Record<string, string>[];
  return students.filter((s) => enrolled.has(s.entity_id as string));
}

/** A new line item of a class, for results to name: none has a result for it yet. */
async function newLineItem(classId: string, roster: { categories: string[] }): Promise<string> {
  const item = await json(
    await send('POST', '/api/line_items', {
      class_id: classId,
      title: 'Ficha para resultados',
      category_id: roster.categories[0],
      result_value_max: 20,
      assign_date: '2026-10-05',
      due_date: '2026-10-09',
    }),
    201,
  );
  return item.line_item_id as string;
}

/** A route's reads but for the role groups' records. */
const withoutRoleRecords = (route: Route): Route => ({
  ...route,
  reads: route.reads.filter(
    (p) =>
      !(['students', 'teachers', 'tutors', 'staffs'] as const).some((g) => p === keys.recordPartition(g)),
  ),
});

/** A token route's partitions but for the secrets' items, which only a secret the administration API made uses. */
const withoutSecretItems = (route: Route): Route => ({
  ...route,
  reads: route.reads.filter((p) => p !== keys.clientSecretPartition),
  writes: route.writes.filter((p) => p !== keys.clientSecretPartition),
});

/** And the route needs what it declares; public keys are read once a process, by an earlier route. */
function expectAllUsed(route: Route, calls: RecordedCall[]) {
  for (const partition of route.reads.filter((p) => p !== keys.publicKeyPartition)) {
    expect(
      calls.some((c) => READS.includes(c.operation) && c.partitions.includes(partition)),
      `${route.id} reads ${partition}`,
    ).toBe(true);
  }
  for (const partition of route.writes) {
    expect(
      calls.some((c) => WRITES.includes(c.operation) && c.partitions.includes(partition)),
      `${route.id} writes ${partition}`,
    ).toBe(true);
  }
}

beforeAll(async () => {
  proxy = await startRecordingProxy(inject('dynamodbEndpoint'));
  run = await startLocalRun({
    host: '127.0.0.1',
    port: 0,
    dynamodbEndpoint: proxy.url,
    tableName,
    demoClientSecret: SECRET,
    syncLagMs: 0,
    auditLogFile,
  });
  personToken = personTokens(direct, run.tableName, run.url);
  proxy.take();
});
afterAll(async () => {
  direct.destroy();
  await run.stop();
  await proxy.close();
  rmSync(auditLogFile, { force: true });
});

describe('what each route touches', () => {
  it('the token endpoint reads the OAuth clients, and locally the private key the table holds', async () => {
    const response = await fetch(`${run.url}/api/sso/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: DEMO_CLIENT_ID,
        client_secret: SECRET,
      }),
    });
    expect(response.status).toBe(200);
    token = ((await response.json()) as { access_token: string }).access_token;
    const route = routes.find((r) => r.access === 'sign') as Route;
    // Deployed, the private key comes from Secrets Manager; the local run keeps it in the table.
    const granted = [...partitionsRead(route), keys.privateKeyPartition];
    for (const call of proxy.take()) {
      expect(['GetItem', 'Query']).toContain(call.operation);
      for (const partition of call.partitions) expect(granted).toContain(partition);
    }
  });

  it.each(recordGroups.map((g) => [g] as const))('every operation of %s', async (group: RecordGroup) => {
    const idField = idFields[group];
    const { calls, track } = tracker();
    const roster = await rosterIds();
    // A record about a student of a class is made for one the class enrolls.
    const students =
      isStudentWork(group) || group === 'assessment_results'
        ? await studentsOfClass(roster.classes[0] as string)
        : ((await json(await send('GET', '/api/students?items_per_page=2'), 200)).students as Record<
            string,
            string
          >[]);
    const [first, second] = students.map((s) => s.student_id);
    const body = (studentId?: string) => {
      const alternate = studentId === second ? 1 : 0;
      switch (group) {
        // The replace moves the organisation to another parent, which moves the tree's version.
        case 'entities':
          return { ...organisationBody(), parent_id: roster.schools[alternate] };
        // The replace turns a role record inactive, which moves its entity's change time too.
        case 'tutors':
          return { ...personBody('E'), ative: alternate === 0, student_ids: [studentId] };
        case 'academic_sessions':
          return {
            title: 'Período de teste',
            type: 'term',
            start_date: '2026-09-14',
            end_date: '2026-12-18',
            parent_id: roster.sessions[alternate],
            school_year: '2027',
          };
        case 'courses':
          return { title: 'Curso de teste', org_id: roster.schools[alternate] };
        case 'classes':
          return {
            title: 'Turma de teste',
            course_id: roster.courses[alternate],
            school_id: roster.schools[alternate],
            term_ids: [roster.sessions[alternate]],
          };
        case 'enrollments':
          return { class_id: roster.classes[0], entity_id: roster.person, role: 'student' };
        case 'categories':
          return {
            title: 'Categoria de teste',
            weight: 10 + alternate,
            school_year_id: roster.schoolYears[alternate],
          };
        case 'score_scales':
          return {
            title: 'Escala de teste',
            type: 'numeric',
            class_id: roster.classes[0],
            minimum: 0,
            maximum: 10 + alternate,
          };
        case 'line_items':
          return {
            class_id: roster.classes[0],
            title: 'Ficha de teste',
            category_id: roster.categories[alternate],
            score_scale_id: roster.scales[alternate],
            grading_period_id: roster.gradingPeriods[alternate],
            assign_date: '2026-10-05',
            due_date: '2026-10-09',
          };
        case 'results':
          return {
            class_id: roster.classes[0],
            line_item_id: roster.lineItem,
            student_id: first,
            status: alternate === 0 ? 'submitted' : 'fully graded',
            score: alternate === 0 ? null : 15,
            score_date: '2026-10-12',
          };
        case 'attendance':
          return {
            class_id: roster.classes[0],
            student_id: first,
            date: '2026-12-01',
            status: alternate === 0 ? 'tardy' : 'present',
            minutes_late: alternate === 0 ? 5 : null,
          };
        case 'assessment_line_items':
          return {
            title: 'Prova de teste',
            class_id: roster.classes[0],
            parent_id: roster.assessments[alternate],
            score_scale_id: roster.scales[alternate],
          };
        case 'assessment_results':
          return {
            class_id: roster.classes[0],
            assessment_line_item_id: roster.assessment,
            student_id: first,
            status: alternate === 0 ? 'submitted' : 'fully graded',
            score: alternate === 0 ? null : 62,
            score_percentile: alternate === 0 ? null : 48.5,
            score_date: '2027-06-18',
          };
        default:
          return { ...personBody(), ative: alternate === 0 };
      }
    };

    const created = await track(`create-${group}`, async () =>
      json(await send('POST', `/api/${group}`, body(first)), 201),
    );
    if (group === 'assessment_results') {
      // A student the class does not enroll is refused, having read the class.
      const enrolled = new Set(students.map((s) => s.student_id));
      const everyone = (await json(await send('GET', '/api/students?items_per_page=500'), 200))
        .students as Record<string, string>[];
      const outsider = everyone.find((s) => !enrolled.has(s.student_id))?.student_id;
      await track(`create-${group}`, async () =>
        json(await send('POST', `/api/${group}`, { ...body(first), student_id: outsider }), 400),
      );
    }
    const path = `/api/${group}/${created[idField]}`;
    await track(`replace-${group}`, async () => json(await send('PUT', path, body(second)), 200));
    if (groups[group].documents) {
      await track(`add-document-${group}`, async () =>
        json(await send('POST', `${path}/documents`, documentBody), 201),
      );
    }
    await track(`get-${group}`, async () => json(await send('GET', path), 200));
    await track(`list-${group}`, async () => json(await send('GET', `/api/${group}?items_per_page=3`), 200));
    await track(`list-${group}`, async () =>
      json(await send('GET', `/api/${group}?updated_since=2000-01-01T00:00:00Z`), 200),
    );
    await track(`delete-${group}`, async () => json(await send('DELETE', path), 204));
    await track(`get-${group}`, async () => json(await send('GET', path), 410));
    await track(`replace-${group}`, async () => json(await send('PUT', path, body(second)), 410));
    if (groups[group].documents) {
      await track(`add-document-${group}`, async () =>
        json(await send('POST', `${path}/documents`, documentBody), 410),
      );
    }
    await track(`delete-${group}`, async () => json(await send('DELETE', path), 410));
    if (group === 'entities') {
      // Deleting a person ends their enrollments: the enrollments, their deletions and their classes.
      const person = await json(
        await send('POST', '/api/entities', { ...organisationBody(), entity_type: 'person' }),
        201,
      );
      await json(
        await send('POST', '/api/enrollments', {
          class_id: roster.classes[0],
          entity_id: person.entity_id,
          role: 'aide',
        }),
        201,
      );
      await track('delete-entities', async () =>
        json(await send('DELETE', `/api/entities/${person.entity_id}`), 204),
      );
    }
    await track(`get-${group}`, async () => json(await send('GET', `/api/${group}/${randomUUID()}`), 404));
    await track(`list-deleted-${group}`, async () => json(await send('GET', `/api/${group}/deleted`), 200));

    // People who may read only some of the group: a guardian (students in care, own tutor records, their
    // classes), a student (own record and classes) and a teacher (the classes they teach).
    for (const username of ['guardian', 'student', 'teacher']) {
      const bearer = await personToken(username);
      const read = (path: string) => send('GET', path, undefined, bearer);
      const list = await track(`list-${group}`, () => read(`/api/${group}?items_per_page=1`));
      if (list.status === 403) continue;
      const [first] = (await json(list, 200))[group] as Record<string, string>[];
      // A teacher reads no whole day's attendance, and the demo has only those.
      if (first) {
        await track(`get-${group}`, async () => json(await read(`/api/${group}/${first[idField]}`), 200));
      }
      await track(`get-${group}`, async () => json(await read(`/api/${group}/${randomUUID()}`), 404));
      await track(`list-${group}`, async () =>
        json(await read(`/api/${group}?updated_since=2000-01-01T00:00:00Z`), 200),
      );
      await track(`list-deleted-${group}`, async () =>
        json(await read(`/api/${group}/deleted?since=${new Date().toISOString()}`), 200),
      );
    }
    if (partlyWritten(group)) {
      // A teacher writes the line items of the classes they teach, found from their entity.
      const bearer = await personToken('teacher');
      const own = (await json(await send('GET', '/api/classes?items_per_page=1', undefined, bearer), 200))
        .classes as Record<string, string>[];
      const classId = own[0]?.class_id as string;
      // A result names a line item of its class: one made there for it.
      const lineItem = group === 'results' ? { line_item_id: await newLineItem(classId, roster) } : {};
      // A record about a student of the class: one it enrolls.
      const [pupil] = isStudentWork(group) ? await studentsOfClass(classId) : [];
      const ofPupil = pupil ? { student_id: pupil.student_id } : {};
      const mine = { ...body(first), class_id: classId, ...ofPupil, ...lineItem };
      const made = await track(`create-${group}`, async () =>
        json(await send('POST', `/api/${group}`, mine, bearer), 201),
      );
      const at = `/api/${group}/${made[idField]}`;
      await track(`replace-${group}`, async () =>
        json(
          await send('PUT', at, { ...body(second), class_id: classId, ...ofPupil, ...lineItem }, bearer),
          200,
        ),
      );
      await track(`delete-${group}`, async () => json(await send('DELETE', at, undefined, bearer), 204));
    }
    // A client registered with one school: its reads and writes first find what the school holds.
    const scoped = await schoolClientToken();
    const asSchool = (method: string, path: string, payload?: unknown) => send(method, path, payload, scoped);
    const page = await track(`list-${group}`, async () =>
      json(await asSchool('GET', `/api/${group}?items_per_page=1`), 200),
    );
    const [held] = page[group] as Record<string, string>[];
    if (held) {
      await track(`get-${group}`, async () =>
        json(await asSchool('GET', `/api/${group}/${held[idField]}`), 200),
      );
    }
    await track(`list-${group}`, async () =>
      json(await asSchool('GET', `/api/${group}?updated_since=2000-01-01T00:00:00Z`), 200),
    );
    await track(`list-deleted-${group}`, async () =>
      json(
        await asSchool(
          'GET',
          `/api/${group}/deleted?since=${new Date(Date.now() - 3_600_000).toISOString()}`,
        ),
        200,
      ),
    );
    const heldThroughClasses = [
      'entities',
      'students',
      'teachers',
      'tutors',
      'classes',
      'enrollments',
      'line_items',
      'results',
      'attendance',
    ];
    const elsewhere = `/api/${group}/${heldThroughClasses.includes(group) ? await outsideSchool(group) : randomUUID()}`;
    await track(`get-${group}`, async () => json(await asSchool('GET', elsewhere), 404));
    // What all schools share, a school's client reads and never changes.
    const refused = sharedBySchools(group) ? 403 : 404;
    await track(`replace-${group}`, async () =>
      json(await asSchool('PUT', elsewhere, body(second)), refused),
    );
    await track(`delete-${group}`, async () => json(await asSchool('DELETE', elsewhere), refused));
    if (groups[group].documents) {
      await track(`add-document-${group}`, async () =>
        json(await asSchool('POST', `${elsewhere}/documents`, documentBody), 404),
      );
    }
    if (ofOneClass(group)) {
      await track(`create-${group}`, async () =>
        json(await asSchool('POST', `/api/${group}`, { ...body(), class_id: randomUUID() }), 403),
      );
    }
    // A result or attendance record in its school's class, of a student its school does not hold.
    if (isStudentWork(group)) {
      const classes = (await json(await send('GET', '/api/classes?items_per_page=100'), 200))
        .classes as Record<string, string>[];
      const theirs = classes.find((c) => c.school_id === clientSchool)?.class_id;
      const stranger = { ...body(), class_id: theirs, student_id: await outsideSchool('students') };
      await track(`create-${group}`, async () =>
        json(await asSchool('POST', `/api/${group}`, stranger), 403),
      );
    }
    for (const [id, made] of calls) expectAllUsed(routeOf(id), made);
  });

  it("the bulk entries (a class's register, a line item's results) touch only their granted partitions, for a teacher and a school's client, and use them all", async () => {
    const { calls, track } = tracker();
    const teacher = await personToken('teacher');
    const own = (await json(await send('GET', '/api/classes?items_per_page=1', undefined, teacher), 200))
      .classes as Record<string, string>[];
    const classId = own[0]?.class_id as string;
    // Students of the class, whom a school's client whose school it is may name there.
    const students = (await studentsOfClass(classId)).slice(0, 2);
    const lineItem = await newLineItem(classId, await rosterIds());
    const entries = [
      {
        id: 'put-class-register',
        path: `/api/classes/${classId}/attendance/2026-12-14`,
        elsewhere: `/api/classes/${randomUUID()}/attendance/2026-12-14`,
        body: { marks: students.map((s) => ({ student_id: s.student_id, status: 'present' })) },
      },
      {
        id: 'put-line-item-results',
        path: `/api/line_items/${lineItem}/results`,
        elsewhere: `/api/line_items/${randomUUID()}/results`,
        body: {
          results: students.map((s) => ({
            student_id: s.student_id,
            status: 'submitted',
            score_date: '2026-12-14',
          })),
        },
      },
    ];
    const scoped = await schoolClientToken();
    const cls = await json(await send('GET', `/api/classes/${classId}`), 200);
    // The school's client writes there only in its school's classes.
    const asSchool = cls.school_id === clientSchool ? 200 : 403;
    for (const { id, path, elsewhere, body } of entries) {
      // Made, then replaced: the second reads the records the first made.
      for (let i = 0; i < 2; i++) {
        await track(id, async () => json(await send('PUT', path, body, teacher), 200));
      }
      await track(id, async () => json(await send('PUT', path, body, scoped), asSchool));
      await track(id, async () => json(await send('PUT', elsewhere, body, scoped), 404));
      expectAllUsed(routeOf(id), calls.get(id) ?? []);
    }
  });

  it("the OneRoster Gradebook's PUT and DELETE touch only their granted partitions, for a client and a school's client, and use them all", async () => {
    const { calls, track } = tracker();
    const roster = await rosterIds();
    const scoped = await schoolClientToken();
    const classes = (await json(await send('GET', '/api/classes?items_per_page=100'), 200)).classes as Record<
      string,
      string
    >[];
    const theirs = classes.find((c) => c.school_id === clientSchool) as Record<string, string>;
    const [student, another] = await studentsOfClass(theirs.class_id as string);
    const today = new Date().toISOString().slice(0, 10);
    const year = await json(
      await send('POST', '/api/academic_sessions', {
        title: 'Ano de hoje',
        type: 'school_year',
        start_date: today,
        end_date: today,
        school_year: today.slice(0, 4),
      }),
      201,
    );
    const gradebook = '/ims/oneroster/gradebook/v1p2';
    const ref = (sourcedId: unknown) => ({ sourcedId });
    const bodies = {
      category: (id: string) => ({
        category: { sourcedId: id, status: 'active', title: 'Projetos', weight: 5 },
      }),
      'score-scale': (id: string) => ({
        scoreScale: {
          sourcedId: id,
          status: 'active',
          title: 'Níveis',
          type: 'numeric',
          class: ref(theirs.class_id),
          scoreScaleValue: [{ itemValueLHS: '1 - 5', itemValueRHS: '1 - 5' }],
        },
      }),
      'line-item': (id: string) => ({
        lineItem: {
          sourcedId: id,
          title: 'Ficha',
          assignDate: '2026-12-01',
          dueDate: '2026-12-04',
          class: ref(theirs.class_id),
          school: ref(theirs.school_id),
          category: ref(roster.categories[0]),
          gradingPeriod: ref(roster.gradingPeriods[0]),
          scoreScale: ref(roster.scales[0]),
          resultValueMax: 20,
        },
      }),
      result: (id: string, lineItem: string) => ({
        result: {
          sourcedId: id,
          lineItem: ref(lineItem),
          student: ref(student?.entity_id),
          scoreStatus: 'fully graded',
          score: 15,
          scoreDate: '2026-12-05',
        },
      }),
    };
    // Each object made, replaced and deleted by the tenant's client, then by the school's client; a
    // category or score scale, which every school shares, the school's client does not write.
    const results = new Map<string, string>();
    const categories = new Map<string, string>();
    const scales = new Map<string, string>();
    for (const bearer of [token, scoped]) {
      const lineItem = randomUUID();
      for (const [object, path] of [
        ['category', 'categories'],
        ['score-scale', 'scoreScales'],
        ['line-item', 'lineItems'],
        ['result', 'results'],
      ] as const) {
        const id = object === 'line-item' ? lineItem : randomUUID();
        if (object === 'result') results.set(bearer, id);
        if (object === 'category') categories.set(bearer, id);
        if (object === 'score-scale') scales.set(bearer, id);
        const body = bodies[object](id, lineItem);
        const shared = (object === 'category' || object === 'score-scale') && bearer === scoped;
        for (let i = 0; i < 2; i++) {
          await track(`put-oneroster-${object}`, async () =>
            json(await send('PUT', `${gradebook}/${path}/${id}`, body, bearer), shared ? 403 : 201),
          );
        }
      }
      // Another student's result posted with the line item's, made then replaced.
      const posted = {
        results: [
          {
            sourcedId: 'lms-1',
            lineItem: ref(lineItem),
            student: ref(another?.entity_id),
            scoreStatus: 'submitted',
            scoreDate: '2026-12-06',
          },
        ],
      };
      let allocated = '';
      for (let i = 0; i < 2; i++) {
        const pairs = await track('post-oneroster-results-of-line-item', async () =>
          json(await send('POST', `${gradebook}/lineItems/${lineItem}/results`, posted, bearer), 201),
        );
        allocated = (pairs.sourcedIdPairs as { allocatedSourcedId: string }[])[0]
          ?.allocatedSourcedId as string;
      }
      // Deleted, then deleted again: the second finds it deleted (404).
      for (const [object, path, id] of [
        ['result', 'results', allocated],
        ['result', 'results', results.get(bearer)],
        ['line-item', 'lineItems', lineItem],
        ['category', 'categories', categories.get(bearer)],
        ['score-scale', 'scoreScales', scales.get(bearer)],
      ] as const) {
        const shared = (object === 'category' || object === 'score-scale') && bearer === scoped;
        for (const status of shared ? [403] : [204, 404]) {
          await track(`delete-oneroster-${object}`, async () =>
            json(await send('DELETE', `${gradebook}/${path}/${id}`, undefined, bearer), status),
          );
        }
      }
    }
    // An administrator's token carries the binding's scopes too: its writes stay within the same grants.
    const admin = await personToken('admin');
    const adminItem = randomUUID();
    await track('put-oneroster-line-item', async () =>
      json(
        await send('PUT', `${gradebook}/lineItems/${adminItem}`, bodies['line-item'](adminItem), admin),
        201,
      ),
    );
    await track('delete-oneroster-line-item', async () =>
      json(await send('DELETE', `${gradebook}/lineItems/${adminItem}`, undefined, admin), 204),
    );
    // An assessment of the school's class and a result in it, made, replaced and deleted by the tenant's
    // client; the school's client writes none (403) and finds none to delete (404).
    const assessment = randomUUID();
    const assessmentResult = randomUUID();
    const assessmentBodies = {
      'assessment-line-item': {
        assessmentLineItem: {
          sourcedId: assessment,
          title: 'Teste diagnóstico',
          class: ref(theirs.class_id),
          scoreScale: ref(roster.scales[0]),
        },
      },
      'assessment-result': {
        assessmentResult: {
          sourcedId: assessmentResult,
          assessmentLineItem: ref(assessment),
          student: ref(student?.entity_id),
          scoreStatus: 'fully graded',
          score: 12,
          scoreDate: '2026-12-05',
        },
      },
    };
    // A result of a student the class does not enroll is refused, having read the class.
    const enrolled = new Set((await studentsOfClass(theirs.class_id as string)).map((s) => s.entity_id));
    const outsider = (
      (await json(await send('GET', '/api/students?items_per_page=500'), 200)).students as Record<
        string,
        string
      >[]
    ).find((s) => !enrolled.has(s.entity_id))?.entity_id;
    const outsiderResult = {
      assessmentResult: { ...assessmentBodies['assessment-result'].assessmentResult, student: ref(outsider) },
    };
    for (const [object, path, id] of [
      ['assessment-line-item', 'assessmentLineItems', assessment],
      ['assessment-result', 'assessmentResults', assessmentResult],
    ] as const) {
      await track(`put-oneroster-${object}`, async () =>
        json(await send('PUT', `${gradebook}/${path}/${id}`, assessmentBodies[object], scoped), 403),
      );
      if (object === 'assessment-result') {
        await track(`put-oneroster-${object}`, async () =>
          json(await send('PUT', `${gradebook}/${path}/${id}`, outsiderResult, token), 400),
        );
      }
      for (let i = 0; i < 2; i++) {
        // The replace puts the assessment under another, which reads and moves the tree's version.
        const body =
          object === 'assessment-line-item' && i === 1
            ? {
                assessmentLineItem: {
                  ...assessmentBodies[object].assessmentLineItem,
                  parentAssessmentLineItem: ref(roster.assessments[0]),
                },
              }
            : assessmentBodies[object];
        await track(`put-oneroster-${object}`, async () =>
          json(await send('PUT', `${gradebook}/${path}/${id}`, body, token), 201),
        );
      }
    }
    for (const [object, path, id] of [
      ['assessment-result', 'assessmentResults', assessmentResult],
      ['assessment-line-item', 'assessmentLineItems', assessment],
    ] as const) {
      await track(`delete-oneroster-${object}`, async () =>
        json(await send('DELETE', `${gradebook}/${path}/${id}`, undefined, scoped), 404),
      );
      for (const status of [204, 404]) {
        await track(`delete-oneroster-${object}`, async () =>
          json(await send('DELETE', `${gradebook}/${path}/${id}`, undefined, token), status),
        );
      }
    }
    await json(await send('DELETE', `/api/academic_sessions/${year.academic_session_id}`), 204);
    // A PUT reads a deleted object's trace only when it is deleted between the PUT's read and its write.
    for (const route of routes.filter((r) => r.dialect.kind === 'imsx' && r.access === 'write')) {
      const used =
        route.method === 'PUT'
          ? {
              ...route,
              reads: route.reads.filter((p) => !recordGroups.some((g) => p === keys.gonePartition(g))),
            }
          : route;
      expectAllUsed(used, calls.get(route.id) ?? []);
    }
  });

  it("a student's grades touch only their granted partitions, for each kind of reader", async () => {
    const { track } = tracker();
    const [student] = (await json(await send('GET', '/api/students?items_per_page=1'), 200))
      .students as Record<string, string>[];
    const path = `/api/students/${student?.student_id}/grades`;
    await track('get-student-grades', async () => json(await send('GET', path), 200));
    for (const username of ['guardian', 'student', 'teacher', 'staff']) {
      const bearer = await personToken(username);
      const response = await track('get-student-grades', () => send('GET', path, undefined, bearer));
      expect([200, 403, 404]).toContain(response.status);
    }
    const scoped = await schoolClientToken();
    const response = await track('get-student-grades', () => send('GET', path, undefined, scoped));
    expect([200, 404]).toContain(response.status);
    await track('get-student-grades', async () =>
      json(await send('GET', `/api/students/${randomUUID()}/grades`), 404),
    );
  });

  it("the gradebook's summaries touch only their granted partitions, for each kind of reader", async () => {
    const { track } = tracker();
    const [student] = (await json(await send('GET', '/api/students?items_per_page=1'), 200))
      .students as Record<string, string>[];
    const [item] = (await json(await send('GET', '/api/line_items?items_per_page=1'), 200))
      .line_items as Record<string, string>[];
    const reads = [
      ['get-student-attendance-summary', `/api/students/${student?.student_id}/attendance_summary`],
      ['get-line-item-distribution', `/api/line_items/${item?.line_item_id}/distribution`],
    ] as const;
    for (const [id, path] of reads) {
      await track(id, async () => json(await send('GET', path), 200));
      for (const username of ['guardian', 'student', 'teacher', 'staff']) {
        const bearer = await personToken(username);
        const response = await track(id, () => send('GET', path, undefined, bearer));
        expect([200, 403, 404]).toContain(response.status);
      }
      const response = await track(id, async () => send('GET', path, undefined, await schoolClientToken()));
      expect([200, 404]).toContain(response.status);
    }
  });

  it('the code and refresh grants and the revocation endpoint touch only the token partitions', async () => {
    const tokenRoute = routeOf('create-token');
    const revokeRoute = routeOf('revoke-token');
    // Deployed, the private key comes from Secrets Manager; the local run keeps it in the table.
    const signing = { ...tokenRoute, reads: [...tokenRoute.reads, keys.privateKeyPartition] };
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    const arranging = {
      db,
      tableName: run.tableName,
      users: new UserRepository(db, run.tableName),
      records: new RecordRepository(db, run.tableName),
    };
    const tokenCalls: RecordedCall[] = [];
    const asToken = async <T>(request: () => Promise<T>): Promise<T> => {
      let result: T | undefined;
      tokenCalls.push(
        ...(await expectWithinGrant(signing, async () => {
          result = await request();
        })),
      );
      return result as T;
    };
    const code = await arrangeCode(arranging, { clientId: DEMO_APP_ID });
    const first = await asToken(async () => expectTokens(await exchangeCode(run, code)));
    const second = await asToken(async () => expectTokens(await refresh(run, first.refresh_token as string)));
    await asToken(async () => expect((await refresh(run, first.refresh_token as string)).status).toBe(400));
    await asToken(async () => expect((await exchangeCode(run, code)).status).toBe(400));
    await asToken(async () => expect((await refresh(run, second.refresh_token as string)).status).toBe(400));
    expectAllUsed(withoutSecretItems(tokenRoute), tokenCalls);

    const other = await arrangeCode(arranging, { clientId: DEMO_APP_ID });
    const signedIn = await asToken(async () => expectTokens(await exchangeCode(run, other)));
    const revokeCalls = await expectWithinGrant(revokeRoute, async () => {
      const response = await postForm(run, 'revoke', {
        token: signedIn.refresh_token as string,
        client_id: DEMO_APP_ID,
      });
      expect(response.status).toBe(200);
    });
    expectAllUsed(withoutSecretItems(revokeRoute), revokeCalls);
    db.destroy();
  });

  it("the administration API's changes, and a secret it made at the token and revocation endpoints", async () => {
    const calls = new Map<string, RecordedCall[]>();
    const track = async <T>(id: string, request: () => Promise<T>): Promise<T> => {
      let result: T | undefined;
      const route =
        id === 'create-token'
          ? { ...routeOf(id), reads: [...routeOf(id).reads, keys.privateKeyPartition] }
          : routeOf(id);
      const made = await expectWithinGrant(route, async () => {
        result = await request();
      });
      calls.set(id, [...(calls.get(id) ?? []), ...made]);
      return result as T;
    };
    const clients = '/api/admin/clients';
    const created = (await track('create-client', async () =>
      json(await send('POST', clients, { name: 'Partitions', scopes: ['students:read'] }), 201),
    )) as { client: { client_id: string }; secret: { secret: string } };
    const id = created.client.client_id;
    const secret = created.secret.secret;
    const { schools } = await rosterIds();
    await track('create-client', async () =>
      json(await send('POST', clients, { name: 'Partitions', scopes: ['students:read'], schools }), 201),
    );
    await track('replace-client', async () =>
      json(
        await send('PUT', `${clients}/${id}`, { name: 'Renamed', scopes: ['students:read'], schools }),
        200,
      ),
    );
    const added = (await track('create-client-secret', async () =>
      json(await send('POST', `${clients}/${id}/secrets`, {}), 201),
    )) as { secret_id: string };
    await track('delete-client-secret', async () =>
      json(await send('DELETE', `${clients}/${id}/secrets/${added.secret_id}`), 204),
    );
    await track('create-token', async () =>
      expectTokens(
        await postForm(run, 'token', {
          grant_type: 'client_credentials',
          client_id: id,
          client_secret: secret,
        }),
      ),
    );
    await track('revoke-token', async () =>
      expect(
        (await postForm(run, 'revoke', { token: 'not-a-token', client_id: id, client_secret: secret }))
          .status,
      ).toBe(200),
    );
    await track('delete-client', async () => json(await send('DELETE', `${clients}/${id}`), 204));
    for (const [routeId, made] of calls) {
      const route = routeOf(routeId);
      if (route.access === 'sign' || routeId === 'revoke-token') {
        for (const partition of [keys.clientSecretPartition])
          expect(
            made.some((c) => c.partitions.includes(partition)),
            `${routeId} uses ${partition}`,
          ).toBe(true);
      } else {
        expectAllUsed(route, made);
      }
    }
  });

  it("the webhooks API's changes and reads of a subscription", async () => {
    const { calls, track } = tracker();
    const created = (await track('create-webhook', async () =>
      json(
        await send('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', event_types: ['students.*'] }),
        201,
      ),
    )) as { webhook: { webhook_id: string } };
    const path = `/api/webhooks/${created.webhook.webhook_id}`;
    await track('get-webhook', async () => json(await send('GET', path), 200));
    await track('list-webhook-deliveries', async () => json(await send('GET', `${path}/deliveries`), 200));
    await track('rotate-webhook-secret', async () => json(await send('POST', `${path}/rotate-secret`), 200));
    // Enabling writes only a subscription its failures disabled.
    await new WebhookRepository(direct, tableName).disable(
      created.webhook.webhook_id,
      'Failed on purpose',
      new Date().toISOString(),
    );
    await track('enable-webhook', async () => json(await send('POST', `${path}/enable`), 200));
    await track('replay-webhook', async () =>
      json(await send('POST', `${path}/replay`, { since: new Date(Date.now() - 60_000).toISOString() }), 202),
    );
    await track('delete-webhook', async () => json(await send('DELETE', path), 204));
    for (const [routeId, made] of calls) expectAllUsed(routeOf(routeId), made);
  });

  it("the routes that check a person's sign-in read its family, within their grant", async () => {
    const arranging = {
      db: direct,
      tableName: run.tableName,
      users: new UserRepository(direct, run.tableName),
      records: new RecordRepository(direct, run.tableName),
    };
    const code = await arrangeCode(arranging, {
      username: 'admin',
      clientId: DEMO_APP_ID,
      identityScopes: ['openid', 'profile'],
    });
    const signedIn = await expectTokens(await exchangeCode(run, code));
    const checks = [
      ['get-me', 'GET', '/api/sso/me', undefined, 200],
      ['get-userinfo', 'GET', '/api/sso/userinfo', undefined, 200],
      ['post-userinfo', 'POST', '/api/sso/userinfo', undefined, 200],
      ['create-entities', 'POST', '/api/entities', organisationBody(), 201],
    ] as const;
    for (const [id, method, path, body, status] of checks) {
      const route = routeOf(id);
      expect(route.checksSignIn, id).toBe(true);
      const calls = await expectWithinGrant(route, async () =>
        json(await send(method, path, body, signedIn.access_token), status),
      );
      const familyRead = calls.filter(
        (c) => READS.includes(c.operation) && c.partitions.includes(keys.refreshFamilyPartition),
      );
      expect(familyRead, id).toHaveLength(1);
      expectAllUsed(route, calls);
    }
  });

  it('the sign-in page and its form, a second factor, the sign-on session and logout', async () => {
    const authorize = routeOf('get-authorize');
    const signIn = routeOf('post-authorize');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: DEMO_APP_ID,
      redirect_uri: DEMO_REDIRECT_URIS[0] as string,
      scope: 'openid students:read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const cookieOf = (response: Response, name: string) =>
      response.headers
        .getSetCookie()
        .map((c) => c.split(';')[0] ?? '')
        .find((c) => c.startsWith(`${name}=`)) ?? '';
    /** Opens the sign-in page: its CSRF cookie and a reader of its hidden fields. */
    const openPage = async () => {
      const response = await fetch(`${run.url}/api/sso/authorize?${query}`);
      const page = await response.text();
      expect(response.status, page).toBe(200);
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
      return { cookie: cookieOf(response, 'sso_csrf'), field };
    };
    const post = (opened: Awaited<ReturnType<typeof openPage>>, fields: Record<string, string>) =>
      fetch(`${run.url}/api/sso/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: opened.cookie,
          origin: new URL(run.url).origin,
        },
        body: new URLSearchParams({
          request: opened.field('request'),
          csrf: opened.field('csrf'),
          ...fields,
        }),
      });

    let opened = await openPage();
    const pageCalls = await expectWithinGrant(authorize, async () => {
      opened = await openPage();
    });
    const guardian = { username: 'guardian', password: DEMO_USER_PASSWORD };
    let session = '';
    const formCalls = [
      ...(await expectWithinGrant(signIn, async () =>
        expect((await post(opened, { ...guardian, password: 'wrong' })).status).toBe(400),
      )),
      ...(await expectWithinGrant(signIn, async () => {
        const answer = await post(opened, guardian);
        expect(answer.status).toBe(303);
        session = cookieOf(answer, 'sso_session');
      })),
    ];
    // The session answers a second request at once, with a code.
    pageCalls.push(
      ...(await expectWithinGrant(authorize, async () => {
        const answer = await fetch(`${run.url}/api/sso/authorize?${query}`, {
          redirect: 'manual',
          headers: { cookie: session },
        });
        expect(answer.status).toBe(302);
        expect(answer.headers.get('location')).toContain('code=');
      })),
    );
    expectAllUsed(authorize, pageCalls);

    // An account with a second factor: the password, then the code of its authenticator app.
    const users = new UserRepository(direct, run.tableName);
    const admin = await users.byLogin('admin');
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    await users.update(admin?.user_id as string, { totp_secret: secret });
    const adminPage = await openPage();
    formCalls.push(
      ...(await expectWithinGrant(signIn, async () =>
        expect((await post(adminPage, { username: 'admin', password: DEMO_USER_PASSWORD })).status).toBe(200),
      )),
      ...(await expectWithinGrant(signIn, async () => {
        const code = totp(base32Decode(secret), Date.now() / 1000);
        expect((await post(adminPage, { otp: code })).status).toBe(303);
      })),
    );
    await users.removeTotp(admin?.user_id as string);
    expectAllUsed(signIn, formCalls);

    // Logout by GET and by a form, each with an ID token naming the session's person.
    for (const id of ['get-logout', 'post-logout']) {
      const page = await openPage();
      const answer = await post(page, guardian);
      const callback = new URL(answer.headers.get('location') as string);
      const cookie = cookieOf(answer, 'sso_session');
      const tokens = await expectTokens(
        await postForm(run, 'token', {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code') as string,
          code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
          redirect_uri: DEMO_REDIRECT_URIS[0] as string,
          client_id: DEMO_APP_ID,
        }),
      );
      const params = new URLSearchParams({
        id_token_hint: tokens.id_token as string,
        post_logout_redirect_uri: demoPostLogoutUris(DEMO_REDIRECT_URIS)[0] as string,
      });
      const route = routeOf(id);
      const calls = await expectWithinGrant(route, async () => {
        const logout =
          route.method === 'GET'
            ? await fetch(`${run.url}/api/sso/logout?${params}`, { redirect: 'manual', headers: { cookie } })
            : await fetch(`${run.url}/api/sso/logout`, {
                method: 'POST',
                redirect: 'manual',
                headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
                body: params,
              });
        expect(logout.status, await logout.text()).toBe(303);
      });
      expectAllUsed(route, calls);
    }
  });

  it('the OneRoster routes, listing whole, listing what changed, and reading objects there and not there', async () => {
    const rostering = routes.filter((r) => r.dialect.kind === 'imsx' && r.method === 'GET');
    expect(rostering.length).toBeGreaterThan(0);
    const samples = await rosterSamples((path) => send('GET', path));
    const since = encodeURIComponent("dateLastModified>'2020-01-01T00:00:00Z'");
    for (const route of rostering) {
      const calls: RecordedCall[] = [];
      if (!route.path.includes('{')) {
        const scoped = await schoolClientToken();
        calls.push(
          ...(await expectWithinGrant(route, async () =>
            json(await send('GET', `${route.path}?limit=1&filter=${since}`, undefined, scoped), 200),
          )),
        );
      }
      for (const bearer of [token, await personToken('admin')]) {
        const expectAnswer = (path: string, status: number) =>
          expectWithinGrant(route, async () => json(await send('GET', path, undefined, bearer), status));
        if (!route.path.includes('{')) {
          calls.push(...(await expectAnswer(`${route.path}?limit=1`, 200)));
          calls.push(...(await expectAnswer(`${route.path}?limit=1&filter=${since}`, 200)));
          continue;
        }
        const path = samples.pathOf(route.path);
        const found = !path.includes('/none');
        calls.push(...(await expectAnswer(path, found ? 200 : 404)));
        calls.push(...(await expectAnswer(route.path.replace('{sourcedId}', 'none'), 404)));
      }
      // What an object read or a nested list reads depends on what it finds (and the root organisation is
      // read once a process): that it stays within its grant is checked above; lists use every partition,
      // but for the role records a page of users reads, which are those of the roles its people have.
      // The organisations' listing is read for the root organisation only where no earlier request of the
      // process has read it in the last 5 minutes.
      const pageRoles = /\/(users|students|teachers)$/.test(route.path);
      const used = {
        ...route,
        reads: route.reads.filter(
          (p) => p !== keys.listingPartition('orgs') || /\/(orgs|schools)$/.test(route.path),
        ),
      };
      if (!route.path.includes('{')) expectAllUsed(pageRoles ? withoutRoleRecords(used) : used, calls);
    }
    // Some sixty routes, each read four to six ways: 18 s alone, over 30 s beside the whole suite.
  }, 120_000);

  it.each(
    [
      ...routes.filter(
        (r) =>
          // The record groups' routes (their handlers' folders) are driven above.
          !isRecordGroup(r.handler.split('/')[0] ?? '') &&
          r.access !== 'sign' &&
          r.method === 'GET' &&
          r.dialect.kind !== 'page' &&
          // Userinfo answers a person's token granted openid only: it is checked with one above.
          r.path !== '/api/sso/userinfo' &&
          r.dialect.kind !== 'imsx',
      ),
      fallbackRoute,
    ].map((r) => [r.id, r] as const),
  )('%s touches only its granted partitions, for a client and for a person', async (_id, route) => {
    const calls: RecordedCall[] = [];
    // /api/system counts what a school-scoped client's school holds: its reads are checked with one.
    const bearers = [
      token,
      await personToken('admin'),
      ...(route.id === 'get-system' ? [await schoolClientToken()] : []),
    ];
    for (const bearer of bearers) {
      const made = await expectWithinGrant(route, async () => {
        const response = await send(
          'GET',
          route === fallbackRoute ? '/api/nowhere' : route.path,
          undefined,
          bearer,
        );
        // The docs asset route, asked for its template path, finds no asset: it still must not touch the table.
        expect(response.status).toBe(route === fallbackRoute || route.path.includes('{') ? 404 : 200);
      });
      calls.push(...made);
    }
    expectAllUsed(route, calls);
  });
});
