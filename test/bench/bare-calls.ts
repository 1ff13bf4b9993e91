// The bare DynamoDB calls the stack is measured against: the Query a list page sends (its records and
// one more) and the GetItem of one student, and the page size they and every benchmark read. The bare server
// and the in-process measurements share them.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/data/keys';
import { DEFAULT_ITEMS_PER_PAGE } from '../../shared/http/paging';

/** A list page as clients ask for it: the default page size. */
export const PAGE_ITEMS = DEFAULT_ITEMS_PER_PAGE;

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
