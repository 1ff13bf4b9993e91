// A webhook receiver on 127.0.0.1, as an integrator runs one: it keeps every delivery it is sent, and
// answers each with the status the test chooses (200 unless told otherwise), so that failures are
// retried.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

export async function startReceiver() {
  const received: Received[] = [];
  let answer: (delivery: Received) => number = () => 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery = { headers: request.headers, body, event: JSON.parse(body), at: Date.now() };
      received.push(delivery);
      response.writeHead(answer(delivery)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** How it answers from now on. */
    answerWith(choose: (delivery: Received) => number) {
      answer = choose;
    },
    /**
     * Waits until `done` holds of what it received, or fails after `timeoutMs`: long, since a suite that
     * keeps DynamoDB Local busy was seen to take 20 s over a handful of deliveries.
     */
    async until(done: (received: Received[]) => boolean, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(received)) {
        if (Date.now() > deadline)
          throw new Error(`The receiver did not get what was awaited: ${received.length} deliveries`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The Standard Webhooks signature check written from the specification alone, apart from the library
 * the service signs with: HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's base64 key, one
 * of the space-separated `v1,<base64>` signatures matching.
 */
export function verifiesIndependently(secret: string, delivery: Received): boolean {
  const id = String(delivery.headers['webhook-id']);
  const timestamp = String(delivery.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return String(delivery.headers['webhook-signature'])
    .split(' ')
    .some((signature) => {
      const [version, value] = signature.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
