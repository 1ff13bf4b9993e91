// Builds the DynamoDB document client: the one place SDK clients are constructed.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DocumentClientOptions {
  region: string;
  /** A DynamoDB other than AWS's (DynamoDB Local); it takes any credentials. */
  endpoint?: string | undefined;
  /** For bulk work: more attempts, with client-side rate limiting when DynamoDB throttles. */
  adaptiveRetries?: boolean;
}

export function createDocumentClient({
  region,
  endpoint,
  adaptiveRetries,
}: DocumentClientOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region,
    ...(adaptiveRetries ? { retryMode: 'adaptive', maxAttempts: 10 } : {}),
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // The SDK's logger step writes nothing here (no logger is given), yet it walks every request and
  // response through the model's sensitive-field filter to build the line it would log: for a page of
  // records, a tenth of the CPU a request costs. The service logs its requests itself (shared/log.ts).
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
