// The IAM statements a tenant's functions are granted, built in one place so that every function's
// grant reads the same way: table actions held to named partitions, the tenant key only through the
// one service that needs it.
import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { tableDesign } from '../shared/data/table';
import type { Route } from '../shared/route';
import { partitionsCounted, partitionsRead } from '../shared/routes';

/** What the route functions are granted access to: the tenant's table, key and signing-key secret. */
export interface TenantData {
  table: dynamodb.ITable;
  key: kms.IKey;
  signingKeySecret: secretsmanager.ISecret;
}

const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const writeActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
];

/**
 * Table (or index) actions limited to items whose partition key is one of `partitions`. Scan is never
 * granted: it names no leading key, so the condition would not hold it back. BatchGetItem names one per
 * key, and each must be allowed.
 */
export function tableStatement(
  table: dynamodb.ITable,
  actions: string[],
  partitions: readonly string[],
  indexes: readonly string[] = [],
) {
  return new iam.PolicyStatement({
    actions,
    resources:
      indexes.length > 0 ? indexes.map((index) => `${table.tableArn}/index/${index}`) : [table.tableArn],
    conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [...partitions] } },
  });
}

/** Use of the tenant key, only through the one service that needs it. */
export function keyStatement(
  key: kms.IKey,
  actions: string[],
  service: 'dynamodb' | 'secretsmanager' | 's3' | 'sqs',
) {
  return new iam.PolicyStatement({
    actions,
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:ViaService': `${service}.${Stack.of(key).region}.amazonaws.com` } },
  });
}

/** Reads of `partitions` on the table and, where the code queries them, on every index of the design. */
function readStatements(table: dynamodb.ITable, partitions: readonly string[], viaIndexes: boolean) {
  return [
    tableStatement(table, readActions, partitions),
    ...(viaIndexes
      ? [
          tableStatement(
            table,
            ['dynamodb:Query'],
            partitions,
            tableDesign.indexes.map((index) => index.name),
          ),
        ]
      : []),
  ];
}

/**
 * A route reads and writes its partitions and nothing else, on the table and on every index of its
 * design, and updates the counters of its callers' requests where it takes a token; the token route also
 * reads the signing key. Transactions need no grant of their own: each of
 * their actions is checked like a single write.
 */
export function routeStatements(route: Route, { table, key, signingKeySecret }: TenantData) {
  const partitions = partitionsRead(route);
  const statements: iam.PolicyStatement[] = [];
  if (partitions.length > 0) statements.push(...readStatements(table, partitions, true));
  if (route.writes.length > 0) statements.push(tableStatement(table, writeActions, route.writes));
  const counted = partitionsCounted(route);
  if (counted.length > 0) statements.push(tableStatement(table, ['dynamodb:UpdateItem'], counted));
  if (partitions.length > 0 || route.writes.length > 0 || counted.length > 0) {
    statements.push(keyStatement(key, ['kms:Decrypt'], 'dynamodb'));
  }
  if (route.access === 'sign') {
    statements.push(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [signingKeySecret.secretArn],
      }),
      keyStatement(key, ['kms:Decrypt'], 'secretsmanager'),
    );
  }
  return statements;
}

/** The partitions a function outside the route table reads and writes (shared/events/partitions.ts). */
export interface PartitionAccess {
  reads: readonly string[];
  writes: readonly string[];
}

/**
 * The table grant of a function outside the route table, read like a route's: its reads, on every index
 * too when `viaIndexes` (its code queries one), its writes, BatchWriteItem with them when it writes in
 * batches (each item is held to the partitions like a single write), and the key through DynamoDB.
 */
export function partitionStatements(
  table: dynamodb.ITable,
  key: kms.IKey,
  { reads, writes }: PartitionAccess,
  options: { viaIndexes: boolean; batchWrites: boolean },
) {
  const statements: iam.PolicyStatement[] = [];
  if (reads.length > 0) statements.push(...readStatements(table, reads, options.viaIndexes));
  if (writes.length > 0) {
    const actions = options.batchWrites ? [...writeActions, 'dynamodb:BatchWriteItem'] : writeActions;
    statements.push(tableStatement(table, actions, writes));
  }
  if (statements.length > 0) statements.push(keyStatement(key, ['kms:Decrypt'], 'dynamodb'));
  return statements;
}
