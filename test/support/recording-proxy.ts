// A pass-through proxy in front of DynamoDB Local that records each request's operation and the
// partitions it touches, so tests can compare what a handler really reads with what it is granted.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  operation: string;
  partitions: string[];
}

type AttributeValue = { S?: string };
interface DynamoRequest {
  Key?: { pk?: AttributeValue };
  Item?: { pk?: AttributeValue };
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
  KeyConditionExpression?: string;
  /** BatchGetItem's keys of each table, or BatchWriteItem's requests. */
  RequestItems?: Record<string, { Keys: Keyed[] } | BatchWrite[]>;
}
type Keyed = { pk?: AttributeValue };
type BatchWrite = { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } };

/** The partition key values a request names; '?' where it names none, so the caller notices. */
function partitionsOf(body: DynamoRequest): string[] {
  if (body.RequestItems) {
    return Object.values(body.RequestItems).flatMap((requests) =>
      Array.isArray(requests)
        ? requests.map((write) => (write.PutRequest?.Item ?? write.DeleteRequest?.Key)?.pk?.S ?? '?')
        : requests.Keys.map((key) => key.pk?.S ?? '?'),
    );
  }
  const direct = body.Key?.pk?.S ?? body.Item?.pk?.S;
  if (direct) return [direct];
  // The partition key's condition comes first: `pk = :v`, or `#name = :v` for an index's key.
  const [, , bound] = /^\s*(#?\w+)\s*=\s*(:\w+)/.exec(body.KeyConditionExpression ?? '') ?? [];
  const value = bound ? body.ExpressionAttributeValues?.[bound]?.S : undefined;
  return [value ?? '?'];
}

/** The calls a request makes as IAM sees them: a transaction is each of its actions. */
function callsOf(
  operation: string,
  body: DynamoRequest & { TransactItems?: Record<string, DynamoRequest>[] },
) {
  if (!body.TransactItems) return [{ operation, partitions: partitionsOf(body) }];
  const actions: Record<string, string> = {
    Put: 'PutItem',
    Update: 'UpdateItem',
    Delete: 'DeleteItem',
    ConditionCheck: 'ConditionCheckItem',
  };
  return body.TransactItems.flatMap((item) =>
    Object.entries(item).map(([kind, action]) => ({
      operation: actions[kind] ?? kind,
      partitions: partitionsOf(action),
    })),
  );
}

export async function startRecordingProxy(upstream: string) {
  const target = new URL(upstream);
  const calls: RecordedCall[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
      calls.push(...callsOf(operation, JSON.parse(body.toString('utf8') || '{}')));
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** The calls recorded since the last take, which it clears. */
    take: () => calls.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
