// The audit trail names every person whose data shaped an answer (issue 21, deliverable 3), also when
// the answer carries only a count, an empty page past the end, a 304 or a 412: over HTTP on the local
// run, each event is read back from the run's audit file, and `audit person` (the admin CLI's query)
// finds the person. The OneRoster case is the birth-date bisection of the finding, run to its end.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOfPerson, fileAuditSource } from '../infra/cli/admin/audit';
import type { AuditEvent } from '../shared/audit/audit-event';
import type { Student } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { personBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

const BASE = '/ims/oneroster/rostering/v1p2';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const auditEvents = async (): Promise<AuditEvent[]> =>
  (await readFile(api.auditLogFile, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { audit: AuditEvent }).audit);

/** The events of one response, by its x-request-id (several when its ids were split). */
async function eventsOf(response: Response): Promise<AuditEvent[]> {
  const id = response.headers.get('x-request-id');
  expect(id).toBeTruthy();
  return (await auditEvents()).filter((e) => e.request_id === id);
}

/** The one event of a response, which must name the person by record and entity. */
async function expectNamed(response: Response, ids: { record: string; entity: string }) {
  const [event, ...more] = await eventsOf(response);
  expect(more).toEqual([]);
  expect(event?.record_ids).toContain(ids.record);
  expect(event?.entity_ids).toContain(ids.entity);
  return event as AuditEvent;
}

/** A new student with this birth date, and an e-mail address only they have. */
async function newStudent(birthDate: string, email?: string) {
  const body = { ...personBody('AUD'), birth_date: birthDate };
  body.email = email ?? `told-of.${body.processnumber.toLowerCase()}@example.org`;
  return json<Student>(await api.send('POST', '/api/students', body), 201);
}

const isoDate = (at: Date) => at.toISOString().slice(0, 10);

describe('an answer that carries only a count', () => {
  it('names the child whose birth date a OneRoster demographics filter bisects, in every event', async () => {
    const child = await newStudent('2013-02-21');
    const since = new Date().toISOString();
    // The bisection of the finding: each request asks whether the birth date is after a day, and reads
    // only X-Total-Count from a page far past the end.
    let low = Date.parse('2000-01-01T00:00:00Z');
    let high = Date.parse('2020-12-31T00:00:00Z');
    const requests: string[] = [];
    while (high - low > 86_400_000) {
      const middle = isoDate(new Date(low + Math.floor((high - low) / 86_400_000 / 2) * 86_400_000));
      const filter = `sourcedId='${child.entity_id}' AND birthDate>'${middle}'`;
      const response = await api.get(
        `${BASE}/demographics?limit=1&offset=100000&filter=${encodeURIComponent(filter)}`,
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { demographics: unknown[] }).demographics).toEqual([]);
      const counted = response.headers.get('x-total-count');
      if (counted === '1') low = Date.parse(`${middle}T00:00:00Z`);
      else high = Date.parse(`${middle}T00:00:00Z`);
      const event = await expectNamed(response, { record: child.entity_id, entity: child.entity_id });
      expect(event).toMatchObject({ route: 'list-oneroster-demographics', group: 'entities', outcome: 200 });
      requests.push(event.request_id);
    }
    expect(requests.length).toBeGreaterThanOrEqual(12);
    // After the last answer the birth date is the first day not before it: the bisection worked.
    expect(isoDate(new Date(high))).toBe('2013-02-21');
    const trail = await auditOfPerson(fileAuditSource(api.auditLogFile), child.entity_id, since);
    expect(trail.map((e) => e.request_id)).toEqual(expect.arrayContaining(requests));
  }, 120_000);

  it('names the person a native lookup finds, on an empty page past the end and when none pass', async () => {
    const student = await newStudent('2012-05-17');
    const ids = { record: student.student_id, entity: student.entity_id };
    const since = new Date().toISOString();
    const email = encodeURIComponent(student.email);
    const pastTheEnd = await api.get(`/api/students?email=${email}&page=2&items_per_page=1`);
    const page = await json<{ students: Student[]; total_items: number }>(pastTheEnd);
    expect(page).toMatchObject({ students: [], total_items: 1 });
    await expectNamed(pastTheEnd, ids);
    // The count says the person is not inactive: they are named though none pass.
    const none = await api.get(`/api/students?email=${email}&ative=false`);
    expect(await json(none)).toMatchObject({ students: [], total_items: 0 });
    await expectNamed(none, ids);
    const byNumber = await api.get(
      `/api/students?processnumber=${encodeURIComponent(student.processnumber)}&ative=false`,
    );
    expect(await json(byNumber)).toMatchObject({ total_items: 0 });
    await expectNamed(byNumber, ids);
    const trail = await auditOfPerson(fileAuditSource(api.auditLogFile), student.entity_id, since);
    expect(trail.map((e) => e.request_id)).toEqual(
      [pastTheEnd, none, byNumber].map((r) => r.headers.get('x-request-id')),
    );
  });

  it('names every person a OneRoster filter selects, not only the page', async () => {
    const tag = Date.now().toString(36);
    const twins = [
      await newStudent('2011-11-11', `twin1.${tag}@example.org`),
      await newStudent('2011-11-11', `twin2.${tag}@example.org`),
    ];
    const filter = encodeURIComponent(`email~'.${tag}@'`);
    const response = await api.get(`${BASE}/students?limit=1&filter=${filter}`);
    expect(response.headers.get('x-total-count')).toBe(String(twins.length));
    const [event] = await eventsOf(response);
    expect(event?.entity_ids.sort()).toEqual(twins.map((t) => t.entity_id).sort());
  });

  it("names the person a filter singles out on a class's students, whether counted or not", async () => {
    const classes = (await (await api.get(`${BASE}/classes?limit=1`)).json()) as {
      classes: { sourcedId: string }[];
    };
    const classId = classes.classes[0]?.sourcedId as string;
    const students = (await (await api.get(`${BASE}/classes/${classId}/students?limit=1`)).json()) as {
      users: { sourcedId: string; givenName: string }[];
    };
    const student = students.users[0] as { sourcedId: string; givenName: string };
    const ids = { record: student.sourcedId, entity: student.sourcedId };
    for (const [operator, count] of [
      ['=', '1'],
      ['!=', '0'],
    ] as const) {
      const name = student.givenName.replaceAll("'", "''");
      const filter = `sourcedId='${student.sourcedId}' AND givenName${operator}'${name}'`;
      const response = await api.get(
        `${BASE}/classes/${classId}/students?offset=1000&filter=${encodeURIComponent(filter)}`,
      );
      expect(response.headers.get('x-total-count')).toBe(count);
      expect(await expectNamed(response, ids)).toMatchObject({ route: 'list-oneroster-students-of-class' });
    }
  });

  it('names the active records a list filtered by ative alone read past its page', async () => {
    await newStudent('2010-01-01');
    await newStudent('2010-01-02');
    const response = await api.get('/api/students?ative=true&items_per_page=1');
    const page = await json<{ students: Student[]; next_cursor?: string }>(response);
    expect(page.next_cursor).toBeDefined();
    const [event] = await eventsOf(response);
    expect(event?.record_ids.length).toBeGreaterThan(page.students.length);
    expect(event?.record_ids[0]).toBe(page.students[0]?.student_id);
  });
});

describe('a conditional request', () => {
  it('names the record and its person on a 304 and on a 412', async () => {
    const student = await newStudent('2012-05-17');
    const ids = { record: student.student_id, entity: student.entity_id };
    const since = new Date().toISOString();
    const path = `/api/students/${student.student_id}`;
    const notModified = await api.get(path, { headers: { 'if-none-match': '"1"' } });
    expect(notModified.status).toBe(304);
    expect(await expectNamed(notModified, ids)).toMatchObject({ outcome: 304 });
    const stale = await api.send('PUT', path, personBody('AUD'), { headers: { 'if-match': '"7"' } });
    await expectProblem(stale, 412);
    expect(await expectNamed(stale, ids)).toMatchObject({ action: 'write', outcome: 412 });
    const staleDelete = await api.send('DELETE', path, undefined, { headers: { 'if-match': '"7"' } });
    await expectProblem(staleDelete, 412);
    await expectNamed(staleDelete, ids);
    const trail = await auditOfPerson(fileAuditSource(api.auditLogFile), student.entity_id, since);
    // The student's creation may be stamped after `since` was read on a busy machine (seen in a CI run):
    // what matters is that the trail names the person on each conditional request.
    expect(trail.filter((e) => e.outcome !== 201).map((e) => e.outcome)).toEqual([304, 412, 412]);
  });
});
