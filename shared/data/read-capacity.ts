// Reports the read capacity every read of a document client consumes, table and indexes apart, for the
// benchmarks and their tests: they wrap a client of their own, and the repositories read as they always do.
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Read commands, by the document client's names and the low-level client's its middleware sees. */
const READS = new Set([
  'GetCommand',
  'GetItemCommand',
  'QueryCommand',
  'BatchGetCommand',
  'BatchGetItemCommand',
]);

export function reportReadCapacity(
  db: DynamoDBDocumentClient,
  report: (capacity: ConsumedCapacity) => void,
): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!READS.has(context.commandName ?? '')) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      for (const capacity of [consumed ?? []].flat()) report(capacity);
      return result;
    },
    { step: 'initialize', name: 'reportReadCapacity' },
  );
}
