// Change events pushed to webhooks (issue "change events"; docs/events.md) over real HTTP against the
// local run, which reads DynamoDB Local's stream with the deployed code: every delivery's Standard
// Webhooks signature checks with the specification's library and with an independent implementation;
// events come in order per record; a receiver answering 500 gets the retry; a replay sends kept events
// again; a client receives nothing it cannot read; bad requests are refused and change nothing.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientRepository } from '../shared/data/client-repository';
import { keys } from '../shared/data/keys';
import { WebhookRepository } from '../shared/data/webhook-repository';
import { WEBHOOK_ATTEMPTS } from '../shared/events/backoff';
import { WebhookDelivery } from '../shared/events/delivery';
import { httpSender } from '../shared/events/http-sender';
import { expectProblem, json } from './support/contract';
import { personBody } from './support/fixtures';
import { registeredClient } from './support/oauth';
import { createRecord, removeRecord, startTestApi, type TestApi } from './support/test-api';
import { type Received, startReceiver, verifiesIndependently } from './support/webhook-receiver';

type Row = Record<string, unknown>;
interface Created {
  webhook: Row & { webhook_id: string };
  secret: string;
}

let api: TestApi;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // Retries after about 200 ms, then 400, 800...: the deployed schedule's shape, quicker.
  api = await startTestApi({ webhookRetryBaseMs: 200, revocationRefreshSeconds: 0 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await api?.stop();
});

async function subscribe(eventTypes: string[], url = receiver.url, token?: string): Promise<Created> {
  const response = await api.send(
    'POST',
    '/api/webhooks',
    { url, event_types: eventTypes },
    token ? { token } : {},
  );
  return json<Created>(response, 201);
}

const about = (id: string) => (delivery: Received) => Object.values(delivery.event.data).includes(id);

function expectSigned(secret: string, delivery: Received) {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  expect(new Webhook(secret).verify(delivery.body, headers)).toEqual(delivery.event);
  expect(verifiesIndependently(secret, delivery)).toBe(true);
  expect(verifiesIndependently(`whsec_${Buffer.alloc(24).toString('base64')}`, delivery)).toBe(false);
}

describe('webhooks', { timeout: 180_000 }, () => {
  it('delivers created, updated and deleted events of several groups, signed, in order per record', async () => {
    const { webhook, secret } = await subscribe(['students.*', 'entities.created', 'staffs.deleted']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toMatchObject({ status: 'active', url: receiver.url });
    const first = receiver.received.length;

    // A delivery reads its record when it is made, and skips an event of a record gone by then (its
    // `.deleted` follows): each change is awaited before the next, or a slow delivery would skip it.
    const delivered = (type: string, id: string) =>
      receiver.until((all) => all.slice(first).some((d) => d.event.type === type && about(id)(d)));
    const student = await createRecord(api, 'students', personBody('W'));
    const id = student.student_id as string;
    const path = `/api/students/${id}`;
    await delivered('students.created', id);
    const read = await json<Row>(await api.get(path));
    const replaced = await json<Row>(
      await api.send('PUT', path, { ...read, name: 'Nome Novo' }, { headers: { 'if-match': '"1"' } }),
    );
    await delivered('students.updated', id);
    await removeRecord(api, 'students', id);
    const staff = await createRecord(api, 'staffs', personBody('S'));
    await removeRecord(api, 'staffs', staff.staff_id);

    await receiver.until(
      (all) => all.slice(first).filter(about(id)).length >= 3 && all.some(about(staff.staff_id as string)),
    );
    const mine = receiver.received.slice(first);
    for (const delivery of mine) expectSigned(secret, delivery);
    const studentEvents = mine.filter((d) => d.event.type.startsWith('students.') && about(id)(d));
    expect(studentEvents.map((d) => d.event.type)).toEqual([
      'students.created',
      'students.updated',
      'students.deleted',
    ]);
    // The record as the client reads it when delivered; the deletion as its id and time.
    expect(studentEvents[1]?.event.data).toMatchObject({ student_id: id, name: 'Nome Novo' });
    expect(studentEvents[1]?.event.timestamp).toBe(replaced.updated_at);
    expect(studentEvents[2]?.event.data).toEqual({
      student_id: id,
      deleted_at: studentEvents[2]?.event.timestamp,
    });
    // A created student's entity is created with it; the staff's only deletion was asked for.
    expect(
      mine.some((d) => d.event.type === 'entities.created' && d.event.data.entity_id === student.entity_id),
    ).toBe(true);
    expect(mine.filter((d) => d.event.type.startsWith('staffs.')).map((d) => d.event.type)).toEqual([
      'staffs.deleted',
    ]);
    expect(mine.some((d) => d.event.type === 'entities.updated')).toBe(false);
    // Masked as the client reads it: the demo client holds the sensitive scopes, so nothing is masked.
    expect(new Set(mine.map((d) => d.headers['webhook-id'])).size).toBe(mine.length);
    await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`);
  });

  it('retries a delivery the receiver answered with 500, and lists the attempts', async () => {
    const { webhook, secret } = await subscribe(['teachers.created']);
    let failures = 2;
    receiver.answerWith((delivery) =>
      delivery.event.type === 'teachers.created' && failures-- > 0 ? 500 : 200,
    );
    const first = receiver.received.length;
    const teacher = await createRecord(api, 'teachers', personBody('P'));
    const id = teacher.teacher_id as string;
    await receiver.until((all) => all.slice(first).filter(about(id)).length >= 3);
    receiver.answerWith(() => 200);
    const attempts = receiver.received.slice(first).filter(about(id));
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) expectSigned(secret, attempt);
    const { deliveries } = await json<{ deliveries: Row[] }>(
      await api.get(`/api/webhooks/${webhook.webhook_id}/deliveries`),
    );
    expect(deliveries.map((d) => [d.outcome, d.response_status, d.attempt])).toEqual([
      ['delivered', 200, 3],
      ['failed', 500, 2],
      ['failed', 500, 1],
    ]);
    expect(deliveries[1]?.next_attempt_at).toBeDefined();
    expect(deliveries[0]).toMatchObject({ event_type: 'teachers.created', record_id: id });
    await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`);
  });

  it('disables a subscription whose event failed its last attempt, and the API enables it again', async () => {
    const { webhook } = await subscribe(['staffs.created']);
    receiver.answerWith((delivery) => (delivery.event.type === 'staffs.created' ? 503 : 200));
    const staff = await createRecord(api, 'staffs', personBody('D'));
    const id = staff.staff_id as string;
    const first = await json<{ deliveries: Row[] }>(
      await api.get(`/api/webhooks/${webhook.webhook_id}/deliveries`),
    );
    await receiver.until((all) => all.some(about(id)));
    // Its last attempt, as the queue makes it after about a day of retries: the same delivery code.
    const delivery = new WebhookDelivery({
      webhooks: new WebhookRepository(api.db, api.tableName),
      clients: new ClientRepository(api.db, api.tableName),
      records: api.records,
      send: httpSender({ loopback: true }, 'test'),
      tenantId: 'demo',
      retryBaseMs: 200,
    });
    const event = {
      event_id: 'evt_last',
      type: 'staffs.created' as const,
      record_id: id,
      at: staff.updated_at as string,
    };
    expect(await delivery.deliver({ webhook_id: webhook.webhook_id, event }, WEBHOOK_ATTEMPTS)).toEqual({
      kind: 'dead',
    });
    receiver.answerWith(() => 200);
    const disabled = await json<Row>(await api.get(`/api/webhooks/${webhook.webhook_id}`));
    expect(disabled).toMatchObject({ status: 'disabled' });
    expect(disabled.disabled_reason).toContain('failed 15 attempts');
    const { deliveries } = await json<{ deliveries: Row[] }>(
      await api.get(`/api/webhooks/${webhook.webhook_id}/deliveries`),
    );
    // The queue may still be retrying the first event meanwhile: the last attempt is found by its event.
    expect(deliveries.find((d) => d.event_id === 'evt_last')).toMatchObject({
      outcome: 'dead-lettered',
      response_status: 503,
    });
    expect(deliveries.length).toBeGreaterThan(first.deliveries.length);
    // Nothing goes to a disabled subscription; a replay waits for it to be enabled.
    await expectProblem(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, {
        since: new Date(Date.now() - 60_000).toISOString(),
      }),
      409,
    );
    const enabled = await json<Row>(await api.send('POST', `/api/webhooks/${webhook.webhook_id}/enable`));
    expect(enabled).toMatchObject({ status: 'active' });
    expect(enabled.disabled_at).toBeUndefined();
    const again = await createRecord(api, 'staffs', personBody('E'));
    await receiver.until((all) => all.some((d) => about(again.staff_id as string)(d)));
    await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`);
  });

  it('sends each client only what it may read', async () => {
    const classes = (await json<{ classes: Row[] }>(await api.get('/api/classes?items_per_page=100')))
      .classes;
    const schools = [...new Set(classes.map((c) => c.school_id as string))];
    expect(schools.length).toBeGreaterThan(1);
    const [ours, theirs] = schools as [string, string];
    const narrow = await registeredClient(api, {
      name: 'One school, classes only',
      scopes: ['classes:read', 'webhooks:manage'],
      schools: [ours],
    });
    const other = await startReceiver();
    const wide = await subscribe(['classes.updated', 'students.created']);
    const scoped = await subscribe(['classes.updated', 'students.created'], other.url, narrow.token);
    const firstWide = receiver.received.length;

    const change = async (school: string) => {
      const row = classes.find((c) => c.school_id === school) as Row;
      const path = `/api/classes/${row.class_id as string}`;
      const current = await api.get(path);
      const tag = current.headers.get('etag') as string;
      await json(
        await api.send(
          'PUT',
          path,
          { ...((await current.json()) as Row), title: `Turma ${Date.now()}` },
          { headers: { 'if-match': tag } },
        ),
        200,
      );
      return row.class_id as string;
    };
    const ourClass = await change(ours);
    const theirClass = await change(theirs);
    const student = await createRecord(api, 'students', personBody('N'));
    await receiver.until((all) =>
      [ourClass, theirClass, student.student_id as string].every((id) =>
        all.slice(firstWide).some(about(id)),
      ),
    );
    await other.until((all) => all.some(about(ourClass)));
    // The wide client's later events have come; the narrow one's would have come with them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(other.received.map((d) => [d.event.type, d.event.data.class_id])).toEqual([
      ['classes.updated', ourClass],
    ]);
    for (const delivery of other.received) expectSigned(scoped.secret, delivery);
    await other.close();
    for (const created of [wide, scoped]) {
      const token = created === scoped ? narrow.token : undefined;
      await api.send(
        'DELETE',
        `/api/webhooks/${created.webhook.webhook_id}`,
        undefined,
        token ? { token } : {},
      );
    }
  });

  it('replays the kept events since a time, with their first ids', async () => {
    const since = new Date().toISOString();
    const { webhook } = await subscribe(['academic_sessions.*']);
    const first = receiver.received.length;
    const sessions = await json<{ academic_sessions: Row[] }>(
      await api.get('/api/academic_sessions?items_per_page=1'),
    );
    const session = sessions.academic_sessions[0] as Row;
    const path = `/api/academic_sessions/${session.academic_session_id as string}`;
    const current = await api.get(path);
    await json(
      await api.send(
        'PUT',
        path,
        { ...((await current.json()) as Row), title: 'Ano Letivo Renomeado' },
        {
          headers: { 'if-match': current.headers.get('etag') as string },
        },
      ),
      200,
    );
    const id = session.academic_session_id as string;
    await receiver.until((all) => all.slice(first).some(about(id)));
    const original = receiver.received.slice(first).filter(about(id));
    const replay = await json<Row>(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, { since }),
      202,
    );
    expect(replay).toMatchObject({ webhook_id: webhook.webhook_id, since });
    await receiver.until((all) => all.slice(first).filter(about(id)).length >= 2 * original.length);
    const again = receiver.received.slice(first).filter(about(id)).slice(original.length);
    expect(again.map((d) => d.headers['webhook-id'])).toEqual(original.map((d) => d.headers['webhook-id']));
    await expectProblem(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, { since: '2020-01-01T00:00:00Z' }),
      400,
    );
    await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`);
  });

  it('rotates the secret: both sign for a day', async () => {
    const { webhook, secret } = await subscribe(['courses.updated']);
    const rotated = await json<{ secret: string; previous_secret_expires_at: string }>(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/rotate-secret`),
      200,
    );
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const first = receiver.received.length;
    const courses = await json<{ courses: Row[] }>(await api.get('/api/courses?items_per_page=1'));
    const course = courses.courses[0] as Row;
    const path = `/api/courses/${course.course_id as string}`;
    const current = await api.get(path);
    await json(
      await api.send(
        'PUT',
        path,
        { ...((await current.json()) as Row), title: 'Curso Renomeado' },
        {
          headers: { 'if-match': current.headers.get('etag') as string },
        },
      ),
      200,
    );
    await receiver.until((all) => all.slice(first).some(about(course.course_id as string)));
    const delivery = receiver.received.slice(first).find(about(course.course_id as string)) as Received;
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expectSigned(secret, delivery);
    expectSigned(rotated.secret, delivery);
    const read = await json<Row>(await api.get(`/api/webhooks/${webhook.webhook_id}`));
    expect(read).toMatchObject({ previous_secret_expires_at: rotated.previous_secret_expires_at });
    expect(JSON.stringify(read)).not.toContain('whsec_');
    await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`);
  });

  it('refuses bad subscriptions with a problem and keeps nothing of them', async () => {
    const before = await webhookItems();
    const refused: [unknown, string][] = [
      [{ url: 'https://10.0.0.1/hooks', event_types: ['students.*'] }, 'url'],
      [{ url: 'https://169.254.169.254/latest', event_types: ['students.*'] }, 'url'],
      [{ url: 'http://93.184.216.34/hooks', event_types: ['students.*'] }, 'url'],
      [{ url: 'ftp://127.0.0.1/hooks', event_types: ['students.*'] }, 'url'],
      [{ url: receiver.url, event_types: ['pupils.created'] }, 'event_types'],
      [{ url: receiver.url, event_types: [] }, 'event_types'],
      [{ url: receiver.url, event_types: ['students.*'], secret: 'mine' }, 'secret'],
      [{ url: receiver.url }, 'event_types'],
      [[receiver.url], ''],
      ['not json', ''],
    ];
    for (const [body, field] of refused) {
      const problem = await expectProblem(await api.send('POST', '/api/webhooks', body), 400);
      if (field) expect(JSON.stringify(problem), JSON.stringify(body)).toContain(field);
    }
    await expectProblem(await api.get('/api/webhooks/wh_nothing'), 404);
    await expectProblem(
      await api.send('POST', '/api/webhooks/wh_nothing/replay', { since: new Date().toISOString() }),
      404,
    );
    await expectProblem(await api.send('POST', '/api/webhooks/wh_nothing/rotate-secret'), 404);
    const { webhook } = await subscribe(['students.created']);
    await expectProblem(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, { since: 'yesterday' }),
      400,
    );
    await expectProblem(await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, {}), 400);
    // In UTC, the year 10000: no instant the events are kept for.
    const far = await expectProblem(
      await api.send('POST', `/api/webhooks/${webhook.webhook_id}/replay`, {
        since: '9999-12-31T23:59:59-23:59',
      }),
      400,
    );
    expect(far.errors?.map((e) => e.name)).toEqual(['since']);
    // Another client's subscription is not there for it.
    const stranger = await registeredClient(api, { name: 'Stranger', scopes: ['webhooks:manage'] });
    await expectProblem(await api.get(`/api/webhooks/${webhook.webhook_id}`, { token: stranger.token }), 404);
    await expectProblem(
      await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`, undefined, { token: stranger.token }),
      404,
    );
    expect(
      (await json<{ webhooks: Row[] }>(await api.get('/api/webhooks', { token: stranger.token }))).webhooks,
    ).toEqual([]);
    // Without the scope, 403.
    const reader = await registeredClient(api, { name: 'Reader', scopes: ['students:read'] });
    await expectProblem(await api.get('/api/webhooks', { token: reader.token }), 403);
    expect((await api.send('DELETE', `/api/webhooks/${webhook.webhook_id}`)).status).toBe(204);
    expect((await api.get(`/api/webhooks/${webhook.webhook_id}`)).status).toBe(404);
    expect(await webhookItems()).toEqual(before);
  });
});

async function webhookItems() {
  const { Items = [] } = await api.db.send(
    new QueryCommand({
      TableName: api.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.webhookPartition },
    }),
  );
  return Items;
}
