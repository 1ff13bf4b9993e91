// The bare DynamoDB calls the stack is measured against: the Query a list page sends (its records and
// one more) and the GetItem of one student. The bare server and the in-process measurements share them.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/data/keys';
import { PAGE_ITEMS } from './workload';

export const pageQuery = (tableName: string) =>
  new QueryCommand({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.recordPartition('students') },
    Limit: PAGE_ITEMS + 1,
    ConsistentRead: true,
  });

export const studentGet = (tableName: string, id: string) =>
  new GetCommand({ TableName: tableName, Key: keys.record('students', id), ConsistentRead: true });
