// The audit trail and a person's data on request (issue 15, deliverables 2 and 3), on the local run: every
// read and write of a person record writes one audit event (ids, client, acting person, request id,
// outcome; never the record's content) to the run's audit file; `npm run admin -- audit person` lists
// them; `people export` writes everything about a person to one file; `people erase` refuses while a
// student is in a tutor's care, then with --force leaves nothing of the person readable through the API.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../shared/audit/audit-event';
import { keys } from '../shared/data/keys';
import { SessionRepository } from '../shared/data/session-repository';
import type { User } from '../shared/data/user-repository';
import { idFields, oneRosterScopes } from '../shared/domain/groups';
import type { Entity, Student } from '../shared/schemas/records';
import { runAdminOn } from './support/admin-run';
import { refresh, signIn } from './support/authorization-codes';
import { expectProblem, json } from './support/contract';
import { personBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** Tests that run the CLI make many requests and commands, seconds in all on a busy machine. */
const CLI_TIMEOUT_MS = 180_000;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const admin = (args: string[]) => runAdminOn(api, args);

const auditEvents = (): AuditEvent[] =>
  readFileSync(api.auditLogFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { message: string; audit: AuditEvent })
    .map((line) => {
      expect(line.message).toBe('audit');
      return line.audit;
    });

const eventOf = (requestId: string | null) => auditEvents().find((e) => e.request_id === requestId);

/** The demo account `student`: its entity and student record. */
async function demoStudent() {
  const user = await api.users.byLogin('student');
  const entity = (await api.records.get('entities', user?.entity_id as string))?.record as Entity;
  const studentId = entity.roles.find((r) => r.role === 'student')?.id as string;
  const student = (await api.records.get('students', studentId))?.record as Student;
  return { user, entity, student };
}

describe('the audit trail', () => {
  it("records a client's read of a record by id: route, ids, client, request id, outcome, no content", async () => {
    const { student, entity } = await demoStudent();
    const response = await api.get(`/api/students/${student.student_id}`);
    await json(response);
    const event = eventOf(response.headers.get('x-request-id') ?? null) ?? auditEvents().at(-1);
    expect(event).toMatchObject({
      route: 'get-students',
      method: 'GET',
      action: 'read',
      group: 'students',
      record_ids: [student.student_id],
      entity_ids: [entity.entity_id],
      outcome: 200,
      client_id: 'demo-client',
    });
    expect(event).not.toHaveProperty('actor_user_id');
    expect(Date.parse(event?.time ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(event?.request_id).toMatch(/\S/);
    const text = readFileSync(api.auditLogFile, 'utf8');
    expect(text).not.toContain(student.name);
    expect(text).not.toContain(student.email);
  });

  it('records the person acting, for a signed-in person, and every record of a list page', async () => {
    const response = await api.get('/api/students?items_per_page=3', {
      token: await api.personToken('guardian'),
    });
    const body = await json<{ students: Student[] }>(response);
    const guardian = await api.users.byLogin('guardian');
    const event = auditEvents().at(-1);
    expect(event).toMatchObject({
      route: 'list-students',
      record_ids: body.students.map((s) => s.student_id),
      entity_ids: [...new Set(body.students.map((s) => s.entity_id))],
      actor_user_id: guardian?.user_id,
      actor_entity_id: guardian?.entity_id,
    });
  });

  it('records writes and refusals with their outcome', async () => {
    const created = await json<Student>(
      await api.send('POST', '/api/students', {
        processnumber: 'AUD-1',
        ative: true,
        name: 'Audit Trail',
        email: 'audit.trail@example.org',
        birth_date: '2014-03-09',
      }),
      201,
    );
    expect(auditEvents().at(-1)).toMatchObject({
      route: 'create-students',
      action: 'write',
      record_ids: [created.student_id],
      entity_ids: [created.entity_id],
      outcome: 201,
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api.get(`/api/teachers/${missing}`)).status).toBe(404);
    expect(auditEvents().at(-1)).toMatchObject({
      route: 'get-teachers',
      record_ids: [missing],
      outcome: 404,
    });
    const noScope = await api.get(`/api/students/${created.student_id}`, {
      token: await api.token('teachers:read'),
    });
    expect(noScope.status).toBe(403);
    expect(auditEvents().at(-1)).toMatchObject({ record_ids: [created.student_id], outcome: 403 });
    expect((await api.send('DELETE', `/api/students/${created.student_id}`)).status).toBe(204);
    expect(auditEvents().at(-1)).toMatchObject({
      route: 'delete-students',
      record_ids: [created.student_id],
      entity_ids: [created.entity_id],
      outcome: 204,
    });
  });

  it('names the record in the event of a POST replayed for its Idempotency-Key', async () => {
    const body = personBody('AU');
    const headers = { 'idempotency-key': randomUUID() };
    const first = await api.send('POST', '/api/students', body, { headers });
    const created = await json<Student>(first, 201);
    const replay = await api.send('POST', '/api/students', body, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await json(replay, 201);
    for (const response of [first, replay]) {
      expect(eventOf(response.headers.get('x-request-id'))).toMatchObject({
        record_ids: [created.student_id],
        entity_ids: [created.entity_id],
        outcome: 201,
      });
    }
  });

  it('does not turn a committed write into a 500 when its event cannot be written', async () => {
    const kept = existsSync(api.auditLogFile) ? readFileSync(api.auditLogFile, 'utf8') : '';
    // The audit file's place taken by a folder: appending to it fails.
    rmSync(api.auditLogFile, { force: true });
    mkdirSync(api.auditLogFile);
    try {
      const created = await json<Student>(await api.send('POST', '/api/students', personBody('AF')), 201);
      expect((await api.records.get('students', created.student_id))?.record).toEqual(created);
      await expectProblem(await api.send('POST', '/api/students', { name: '' }), 400);
    } finally {
      rmSync(api.auditLogFile, { recursive: true });
      writeFileSync(api.auditLogFile, kept);
    }
  });

  it(
    'records the OneRoster reads of people by their sourcedIds, and `audit person` lists them',
    async () => {
      const { entity } = await demoStudent();
      const base = '/ims/oneroster/rostering/v1p2';
      const one = await api.get(`${base}/users/${entity.entity_id.toUpperCase()}`);
      expect(one.status).toBe(200);
      expect(eventOf(one.headers.get('x-request-id'))).toMatchObject({
        route: 'get-oneroster-user',
        action: 'read',
        group: 'entities',
        record_ids: [entity.entity_id],
        entity_ids: [entity.entity_id],
        outcome: 200,
        client_id: 'demo-client',
      });
      const list = await api.get(`${base}/students?limit=5&fields=givenName`);
      const page = (await list.json()) as { users: object[] };
      const listed = eventOf(list.headers.get('x-request-id'));
      expect(listed).toMatchObject({ route: 'list-oneroster-students', outcome: 200 });
      expect(listed?.entity_ids).toHaveLength(page.users.length);
      expect(listed?.record_ids).toEqual(listed?.entity_ids);
      const classes = await api.get(`${base}/students/${entity.entity_id}/classes`);
      expect(eventOf(classes.headers.get('x-request-id'))).toMatchObject({
        route: 'list-oneroster-classes-of-student',
        entity_ids: [entity.entity_id],
      });
      const refused = await api.get(`${base}/demographics/${entity.entity_id}`, {
        token: await api.token(oneRosterScopes.core),
      });
      expect(eventOf(refused.headers.get('x-request-id'))).toMatchObject({
        route: 'get-oneroster-demographics',
        entity_ids: [entity.entity_id],
        outcome: 403,
      });
      // Schools and classes are no person's: reading them writes nothing.
      const before = auditEvents().length;
      expect((await api.get(`${base}/schools`)).status).toBe(200);
      expect(auditEvents()).toHaveLength(before);
      const text = readFileSync(api.auditLogFile, 'utf8');
      expect(text).not.toContain(entity.name);
      expect(text).not.toContain(entity.email);
      const trail = await admin(['audit', 'person', entity.entity_id, '--json']);
      expect(trail.code, trail.stderr).toBe(0);
      const routes = (JSON.parse(trail.stdout) as AuditEvent[]).map((e) => e.route);
      expect(routes).toEqual(
        expect.arrayContaining(['get-oneroster-user', 'list-oneroster-classes-of-student']),
      );
    },
    CLI_TIMEOUT_MS,
  );

  it('writes nothing for routes that read no person records', async () => {
    const before = auditEvents().length;
    await json(await api.get('/api/system'));
    expect(auditEvents()).toHaveLength(before);
  });

  it(
    'is listed by `audit person`, oldest first, and refused for a bad id or time',
    async () => {
      const { entity } = await demoStudent();
      const listed = await admin(['audit', 'person', entity.entity_id, '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const events = JSON.parse(listed.stdout) as AuditEvent[];
      expect(events.length).toBeGreaterThanOrEqual(1);
      expect(events.every((e) => e.entity_ids.includes(entity.entity_id))).toBe(true);
      expect(events.map((e) => e.time)).toEqual(events.map((e) => e.time).sort());
      const table = await admin(['audit', 'person', entity.entity_id, '--since', '2000-01-01T00:00:00Z']);
      expect(table.stdout).toContain('get-students');
      expect(table.stdout).toContain('demo-client');
      const later = await admin([
        'audit',
        'person',
        entity.entity_id,
        '--since',
        '2999-01-01T00:00:00Z',
        '--json',
      ]);
      expect(JSON.parse(later.stdout)).toEqual([]);
      expect((await admin(['audit', 'person', 'not-a-uuid'])).code).toBe(2);
      expect((await admin(['audit', 'person', entity.entity_id, '--since', 'yesterday'])).code).toBe(2);
    },
    CLI_TIMEOUT_MS,
  );
});

describe("a person's data on request", () => {
  it(
    'exports everything about a person to one file, accounts without secrets',
    async () => {
      const { entity, student, user } = await demoStudent();
      // A second factor enrolled and used: the account holds a TOTP secret and its last step.
      await api.users.update(user?.user_id as string, { totp_secret: TOTP_SECRET });
      await api.db.send(
        new UpdateCommand({
          TableName: api.tableName,
          Key: keys.user(user?.user_id as string),
          UpdateExpression: 'SET totp_last_step = :step',
          ExpressionAttributeValues: { ':step': 59_000_000 },
        }),
      );
      const out = join(mkdtempSync(join(tmpdir(), 'person-export-')), 'student.json');
      const run = await admin(['people', 'export', entity.entity_id, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const exported = JSON.parse(readFileSync(out, 'utf8'));
      expect(exported.entity).toEqual(entity);
      expect(exported.records.students).toEqual([student]);
      // A student's grades, marks and assessment results are theirs too: the demo has each of them.
      for (const group of ['results', 'attendance', 'assessment_results']) {
        expect(exported.work[group].length, group).toBeGreaterThan(0);
        for (const record of exported.work[group]) expect(record.student_id).toBe(student.student_id);
      }
      expect(exported.accounts).toHaveLength(1);
      expect(exported.accounts[0]).toMatchObject({ user_id: user?.user_id, username: 'student', totp: true });
      const text = readFileSync(out, 'utf8');
      for (const secret of [
        'password_hash',
        'totp_secret',
        'totp_last_step',
        TOTP_SECRET,
        user?.password_hash,
      ])
        expect(text).not.toContain(secret);
      expect(exported.audit.length).toBeGreaterThan(0);
      expect(auditEvents().at(-1)).toMatchObject({
        route: 'admin:people-export',
        entity_ids: [entity.entity_id],
      });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "refuses to erase a student in a tutor's care, then erases every trace with --force",
    async () => {
      const { entity, student, user } = await demoStudent();
      const token = await api.personToken('student');
      expect((await api.get('/api/sso/me', { token })).status).toBe(200);
      const refused = await admin(['people', 'erase', entity.entity_id]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/in the care of tutor .*--force/);
      expect((await api.records.get('students', student.student_id))?.record).toEqual(student);

      const erased = await admin(['people', 'erase', entity.entity_id, '--force']);
      expect(erased.code, erased.stderr).toBe(0);
      expect(erased.stdout).toContain(`Erased ${entity.entity_id}`);
      for (const [group, id] of [
        ['students', student.student_id],
        ['entities', entity.entity_id],
      ] as const) {
        const response = await api.get(`/api/${group}/${id}`);
        expect([404, 410]).toContain(response.status);
        expect(await response.text()).not.toContain(student.name);
        const all = await api.get(`/api/${group}?items_per_page=500`);
        const ids = ((await all.json()) as Record<string, Record<string, string>[]>)[group]?.map(
          (r) => r[idFields[group]],
        );
        expect(ids).not.toContain(id);
      }
      const tutors = await api.get('/api/tutors?items_per_page=500');
      expect(JSON.stringify(await tutors.json())).not.toContain(student.student_id);
      expect(await api.users.get(user?.user_id as string)).toBeUndefined();
      expect(await api.users.byLogin('student')).toBeUndefined();
      expect((await api.get('/api/sso/me', { token })).status).toBe(401);
      expect(auditEvents().find((e) => e.route === 'admin:people-erase')).toMatchObject({
        action: 'write',
        entity_ids: [entity.entity_id],
        record_ids: expect.arrayContaining([student.student_id, entity.entity_id]),
      });
      expect((await admin(['people', 'erase', entity.entity_id])).code).toBe(2);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('an erased person', () => {
  const partition = async (pk: string) =>
    (
      await api.db.send(
        new QueryCommand({
          TableName: api.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        }),
      )
    ).Items ?? [];

  it(
    'can no longer write with a token of theirs, sign on with a session, nor be replayed from a kept response',
    async () => {
      const user = (await api.users.byLogin('admin')) as User;
      const signed = await signIn(api, { username: 'admin' });
      const token = signed.tokens.access_token;
      const write = () => api.send('POST', '/api/students', personBody('ER'), { token });
      await json(await write(), 201);
      await new SessionRepository(api.db, api.tableName).create({
        session_hash: 'erased-person-session',
        user_id: user.user_id,
        auth_time: Math.floor(Date.now() / 1000),
        amr: ['pwd'],
        created_at: new Date().toISOString(),
        idle_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      // A first response kept for an Idempotency-Key, holding a record of the person.
      const entity = (await api.records.get('entities', user.entity_id))?.record as Entity;
      await json(
        await api.send(
          'POST',
          '/api/teachers',
          { ...personBody('ER'), entity_id: entity.entity_id },
          { headers: { 'idempotency-key': 'erase-me' } },
        ),
        201,
      );
      const keptBefore = await partition('IDEM#teachers');
      expect(keptBefore.some((item) => (item.entity_ids as string[]).includes(entity.entity_id))).toBe(true);

      const erased = await admin(['people', 'erase', user.entity_id, '--force']);
      expect(erased.code, erased.stderr).toBe(0);

      await expectProblem(await write(), 401);
      expect((await refresh(api, signed.refreshToken)).status).toBe(400);
      expect(await partition('SSO_SESSION')).not.toContainEqual(
        expect.objectContaining({ user_id: user.user_id }),
      );
      const family = await partition('REFRESH_FAMILY');
      expect(family.find((item) => item.sk === signed.familyId)).toMatchObject({ status: 'revoked' });
      expect(JSON.stringify(family)).not.toContain(user.user_id);
      const kept = await partition('IDEM#teachers');
      expect(JSON.stringify(kept)).not.toContain(entity.entity_id);
      expect(kept.length).toBe(keptBefore.length - 1);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'is erased by a second run when the first stopped after the entity went, accounts left',
    async () => {
      const person = await json<Entity>(
        await api.send('POST', '/api/entities', {
          entity_type: 'person',
          name: 'Half Erased',
          email: 'half@example.org',
        }),
        201,
      );
      const now = new Date().toISOString();
      await api.users.create({
        user_id: randomUUID(),
        username: 'half-erased',
        password_hash: 'not-a-hash',
        status: 'active',
        entity_id: person.entity_id,
        admin: false,
        created_at: now,
        updated_at: now,
      });
      expect((await api.send('DELETE', `/api/entities/${person.entity_id}`)).status).toBe(204);
      const run = await admin(['people', 'erase', person.entity_id]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('half-erased');
      expect(await api.users.byLogin('half-erased')).toBeUndefined();
      expect((await admin(['people', 'erase', person.entity_id])).code).toBe(2);
    },
    CLI_TIMEOUT_MS,
  );
});
