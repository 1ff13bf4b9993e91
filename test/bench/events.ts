// Section 9: change events (docs/events.md). A receiver on 127.0.0.1 subscribes through the API; the time
// from a write's answer (the write committed) to its event reaching the receiver is timed one write at
// a time, through the local run's stream reader and delivery queue, the deployed functions' code. Then
// the delivery throughput of one tenant: a replay of many kept events, from the request to the last
// delivery, all records in parallel as the queue allows.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpClient } from './http-client';
import { percentile, round } from './stats';

export interface EventResults {
  /** Write committed to event received, one write at a time, in ms. */
  latency: { samples: number; p50: number; p95: number; p99: number };
  /** Deliveries a second while a replay of `events` kept events is sent. */
  throughput: { events: number; seconds: number; perSecond: number };
}

interface Arrival {
  recordId: string;
  timestamp: string;
  at: number;
}

async function startReceiver() {
  const arrivals: Arrival[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        timestamp: string;
        data: { student_id: string };
      };
      arrivals.push({ recordId: event.data.student_id, timestamp: event.timestamp, at });
      response.writeHead(204).end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const until = async (done: () => boolean, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`Deliveries stopped at ${arrivals.length}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    until,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function measureEvents(
  baseUrl: string,
  token: string,
  settings: { latencySamples: number; replayEvents: number },
): Promise<EventResults> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const receiver = await startReceiver();
  const api = httpClient(baseUrl);
  const [created, noContent, accepted] = [201, 204, 202].map((status) => httpClient(baseUrl, status)) as [
    ReturnType<typeof httpClient>,
    ReturnType<typeof httpClient>,
    ReturnType<typeof httpClient>,
  ];
  const subscribe = async () =>
    (
      JSON.parse(
        await created.send('/api/webhooks', {
          method: 'POST',
          headers,
          body: JSON.stringify({ url: receiver.url, event_types: ['students.updated'] }),
        }),
      ) as { webhook: { webhook_id: string } }
    ).webhook.webhook_id;
  const unsubscribe = (id: string) => noContent.send(`/api/webhooks/${id}`, { method: 'DELETE', headers });
  const { students } = JSON.parse(await api.send('/api/students?items_per_page=100', { headers })) as {
    students: Record<string, unknown>[];
  };
  const replace = async (student: Record<string, unknown>, n: number) => {
    const path = `/api/students/${student.student_id as string}`;
    // Without its timestamps, which the service moves on with each replace.
    const { created_at: _created, updated_at: _updated, ...body } = student;
    const answer = await api.send(path, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ ...body, name: `${String(student.name).split(' #')[0]} #${n}` }),
    });
    return (JSON.parse(answer) as { updated_at: string }).updated_at;
  };
  try {
    const webhook = await subscribe();
    const samples: number[] = [];
    for (let n = 0; n < settings.latencySamples; n++) {
      const student = students[n % students.length] as Record<string, unknown>;
      const updatedAt = await replace(student, n);
      const committed = performance.now();
      const arrived = () =>
        receiver.arrivals.find((a) => a.recordId === student.student_id && a.timestamp === updatedAt);
      await receiver.until(() => arrived() !== undefined);
      samples.push((arrived() as Arrival).at - committed);
    }
    await unsubscribe(webhook);

    // Events kept while nobody listens, then replayed to a new subscription.
    const since = new Date().toISOString();
    for (let n = 0; n < settings.replayEvents; n += students.length) {
      const batch = students.slice(0, Math.min(students.length, settings.replayEvents - n));
      await Promise.all(batch.map((student, i) => replace(student, n + i)));
    }
    // The stream reader keeps them within a moment; the replay reads them back from the table.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const replayed = await subscribe();
    const before = receiver.arrivals.length;
    const started = performance.now();
    await accepted.send(`/api/webhooks/${replayed}/replay`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ since }),
    });
    await receiver.until(() => receiver.arrivals.length - before >= settings.replayEvents);
    const seconds = (performance.now() - started) / 1000;
    await unsubscribe(replayed);
    return {
      latency: {
        samples: samples.length,
        ...Object.fromEntries(
          ([50, 95, 99] as const).map((p) => [`p${p}`, round(percentile(samples, p), 1)]),
        ),
      } as EventResults['latency'],
      throughput: {
        events: settings.replayEvents,
        seconds: round(seconds, 2),
        perSecond: round(settings.replayEvents / seconds, 0),
      },
    };
  } finally {
    for (const client of [api, created, noContent, accepted]) client.close();
    await receiver.close();
  }
}
