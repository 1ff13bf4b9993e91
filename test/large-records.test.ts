// No response may exceed what Lambda can return (contract section 6): a page of large records stops
// early with a cursor, and the walk still returns every record. No write may take an item past what
// DynamoDB holds: it is refused with 409, never retried as a race nor answered with a 500.
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecords } from '../shared/data/seed-records';
import { StateConflictError } from '../shared/domain/errors';
import type { HttpError } from '../shared/http/errors';
import { commit, retrying, type Step } from '../shared/records/write-transaction';
import type { Staff } from '../shared/schemas/records';
import { httpErrorOf } from '../shared/wiring/domain-errors';
import { json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

describe("a list of records near DynamoDB's item size limit", () => {
  it('keeps every page under the Lambda response limit and still walks every record', async () => {
    const template = (await json<{ staffs: Staff[] }>(await api.get('/api/staffs?items_per_page=1')))
      .staffs[0] as Staff;
    const photo = Buffer.alloc(280 * 1024, 7).toString('base64');
    const large = Array.from({ length: 30 }, (_, i) => ({
      ...template,
      staff_id: `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`,
      processnumber: `L${i}`,
      photobase64: photo,
    }));
    for (const staff of large)
      await insertRecords(api.db, api.tableName, [{ group: 'staffs', record: staff }]);

    const seen: string[] = [];
    let query = 'items_per_page=500';
    let total = 0;
    for (let pages = 0; pages < 20; pages++) {
      const response = await api.get(`/api/staffs?${query}`);
      const text = await response.clone().text();
      expect(Buffer.byteLength(text)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
      const body = await json<{ staffs: Staff[]; next_cursor?: string; total_items: number }>(response);
      total = body.total_items;
      seen.push(...body.staffs.map((s) => s.staff_id));
      if (!body.next_cursor) break;
      query = `items_per_page=500&cursor=${body.next_cursor}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);
    for (const staff of large) expect(seen).toContain(staff.staff_id);
  });
});

describe("a write that would take an item past DynamoDB's 400 KB", () => {
  it('is refused at once with 409 saying so, not tried again as a race', async () => {
    const key = { pk: 'REC#staffs', sk: 'ffffffff-0000-4000-8000-00000000f00d' };
    await api.db.send(
      new PutCommand({ TableName: api.tableName, Item: { ...key, blob: 'x'.repeat(408_000) } }),
    );
    const growing: Step = {
      action: {
        Update: {
          TableName: api.tableName,
          Key: key,
          UpdateExpression: 'SET more = :more',
          ExpressionAttributeValues: { ':more': 'y'.repeat(3_000) },
        },
      },
    };
    const oversized: Step = {
      action: { Put: { TableName: api.tableName, Item: { ...key, blob: 'x'.repeat(410_000) } } },
    };
    for (const step of [growing, oversized]) {
      let attempts = 0;
      const refused = await retrying(async () => {
        attempts += 1;
        await commit(api.db, [step]);
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StateConflictError);
      expect((refused as Error).message).toContain('400 KB');
      expect((httpErrorOf(refused) as HttpError).status).toBe(409);
      expect(attempts).toBe(1);
    }
    await api.db.send(new DeleteCommand({ TableName: api.tableName, Key: key }));
  });
});
