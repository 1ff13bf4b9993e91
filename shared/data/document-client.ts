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
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
