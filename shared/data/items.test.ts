import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemKinds } from './item-kinds';
import { ItemStore } from './items';
import { keys } from './keys';

const store = new ItemStore(
  DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
  'school',
);

describe('a Put of the item store', () => {
  it('writes the time to live the kind declares: after an attribute, plus a grace where it says', () => {
    const expires_at = '2030-01-01T00:00:00.000Z';
    const epoch = Date.parse(expires_at) / 1000;
    expect(store.putInput(itemKinds.session, keys.session('h'), { expires_at }).Item.ttl).toBe(epoch);
    expect(
      store.putInput(itemKinds.authorizationCode, keys.authorizationCode('h'), { expires_at }).Item.ttl,
    ).toBe(epoch + 3600);
  });

  it('writes none for a kind that does not expire, and puts only where nothing is when asked', () => {
    const put = store.putInput(itemKinds.client, keys.client('c'), { name: 'App' }, { ifAbsent: true });
    expect(put).toEqual({
      TableName: 'school',
      Item: { pk: 'CLIENT', sk: 'c', name: 'App' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(store.putInput(itemKinds.client, keys.client('c'), {})).not.toHaveProperty('ConditionExpression');
  });

  it('refuses an item of an expiring kind without the time it expires after', () => {
    expect(() => store.putInput(itemKinds.refreshToken, keys.refreshToken('h'), {})).toThrow(/expires_at/);
  });
});
