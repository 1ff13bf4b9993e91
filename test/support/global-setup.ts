// Starts one in-memory DynamoDB Local for the whole test run and seeds the demo tenant in it once; each
// test file makes its own table in it, a copy of that seeded template.
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { createDocumentClient } from '../../shared/data/document-client';
import { seedTemplateTable } from './demo-table';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const database = await startDynamoDbLocal();
  const db = createDocumentClient({ region: 'eu-west-1', endpoint: database.endpoint });
  await seedTemplateTable(db).finally(() => db.destroy());
  project.provide('dynamodbEndpoint', database.endpoint);
  return () => database.stop();
}
