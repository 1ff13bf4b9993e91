// Starts one in-memory DynamoDB Local for the whole test run; each test file makes its own table in it.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const database = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', database.endpoint);
  return () => database.stop();
}
