// A tenant's DynamoDB table, built from the definition the local run creates its table with
// (shared/data/table.ts): the same keys, every index with its keys and projection, its stream if it has
// one, and the time-to-live attribute. Only what a deployment adds is set here: encryption, recovery and
// what happens to the table when the stack goes.

import type {
  KeySchemaElement,
  ProjectionType,
  ScalarAttributeType,
  StreamViewType,
} from '@aws-sdk/client-dynamodb';
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { type TableDefinition, tableDefinition, tableDesign } from '../shared/data/table';

const attributeTypes: Record<ScalarAttributeType, dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
};
const projectionTypes: Record<ProjectionType, dynamodb.ProjectionType> = {
  ALL: dynamodb.ProjectionType.ALL,
  KEYS_ONLY: dynamodb.ProjectionType.KEYS_ONLY,
  INCLUDE: dynamodb.ProjectionType.INCLUDE,
};
const streamViewTypes: Record<StreamViewType, dynamodb.StreamViewType> = {
  KEYS_ONLY: dynamodb.StreamViewType.KEYS_ONLY,
  NEW_IMAGE: dynamodb.StreamViewType.NEW_IMAGE,
  OLD_IMAGE: dynamodb.StreamViewType.OLD_IMAGE,
  NEW_AND_OLD_IMAGES: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
};

/** A key schema as CDK takes it, each key with the type its attribute definition gives. */
function keysOf(definition: TableDefinition, schema: KeySchemaElement[] = []) {
  const attribute = (keyType: 'HASH' | 'RANGE') => {
    const name = schema.find((key) => key.KeyType === keyType)?.AttributeName;
    if (name === undefined) return undefined;
    const type = definition.AttributeDefinitions.find((a) => a.AttributeName === name)?.AttributeType;
    if (type === undefined) throw new Error(`The table definition has no attribute definition for ${name}`);
    return { name, type: attributeTypes[type] };
  };
  const partitionKey = attribute('HASH');
  if (partitionKey === undefined) throw new Error('A key schema of the table definition has no HASH key');
  return { partitionKey, sortKey: attribute('RANGE') };
}

export interface TenantTableProps {
  encryptionKey: kms.IKey;
  /** Production tables refuse deletion. */
  deletionProtection: boolean;
  removalPolicy: RemovalPolicy;
}

export function tenantTable(scope: Construct, id: string, props: TenantTableProps): dynamodb.Table {
  const definition = tableDefinition;
  // Tenants pay per request: nothing to provision per school, nothing idle at rest.
  if (definition.BillingMode !== 'PAY_PER_REQUEST') {
    throw new Error(`The deployed table is on demand; the table definition says ${definition.BillingMode}`);
  }
  const stream = definition.StreamSpecification;
  const table = new dynamodb.Table(scope, id, {
    ...keysOf(definition, definition.KeySchema),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    ...(stream?.StreamEnabled && stream.StreamViewType
      ? { stream: streamViewTypes[stream.StreamViewType] }
      : {}),
    timeToLiveAttribute: tableDesign.timeToLiveAttribute,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
    encryptionKey: props.encryptionKey,
    deletionProtection: props.deletionProtection,
    removalPolicy: props.removalPolicy,
  });
  for (const index of definition.GlobalSecondaryIndexes) {
    const projection = index.Projection?.ProjectionType ?? 'ALL';
    table.addGlobalSecondaryIndex({
      indexName: index.IndexName as string,
      ...keysOf(definition, index.KeySchema),
      projectionType: projectionTypes[projection],
      ...(index.Projection?.NonKeyAttributes ? { nonKeyAttributes: index.Projection.NonKeyAttributes } : {}),
    });
  }
  return table;
}
