// Per-client rate windows (RATE items) and daily usage (USAGE items). A window counts the units every
// process of the tenant claimed for a caller in one UTC minute; a usage item adds up, per client and
// UTC day, the requests of each route group and the refusals by rate limit. Both are ADDs, so any
// number of processes write them at once without reading first.
import { type DynamoDBDocumentClient, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { tableDesign, timeToLive } from './table';

/** One client's usage of one UTC day. */
export interface ClientUsageDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** Requests answered, by route group. */
  requests: Record<string, number>;
  /** The sum of `requests`. */
  total: number;
  /** Requests refused by the rate limit. */
  refused: number;
}

/** How long a day's usage is kept after the day ends: the usage route shows the last 30 days. */
const USAGE_KEPT_DAYS = 31;
const DAY_MS = 86_400_000;
const REQUESTS_PREFIX = 'requests_';

export class RateRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Adds `n` units to the caller's window of `minute` (`YYYY-MM-DDTHH:MM`, UTC) and returns the
   * window's total after the add: the units every process claimed, granted or not.
   */
  async claim(caller: string, minute: string, n: number, expiresAtEpochSeconds: number): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.rateWindow(caller, minute),
        UpdateExpression: 'ADD #count :n SET #ttl = :ttl',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': tableDesign.timeToLiveAttribute },
        ExpressionAttributeValues: { ':n': n, ':ttl': expiresAtEpochSeconds },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.count ?? 0);
  }

  /**
   * Adds a client's requests of `day` (`YYYY-MM-DD`, UTC), by route group, and its refusals to that
   * day's item, in one write; writes nothing when every count is zero.
   */
  async addUsage(
    clientId: string,
    day: string,
    requests: ReadonlyMap<string, number>,
    refused: number,
  ): Promise<void> {
    const counts = [...requests].filter(([, n]) => n > 0);
    if (counts.length === 0 && refused <= 0) return;
    // Group names hold `-`, which an update expression cannot name directly.
    const names: Record<string, string> = { '#ttl': tableDesign.timeToLiveAttribute, '#day': 'day' };
    const values: Record<string, unknown> = {
      ':ttl': timeToLive(new Date(Date.parse(`${day}T00:00:00Z`) + (1 + USAGE_KEPT_DAYS) * DAY_MS)),
      ':day': day,
    };
    const adds = counts.map(([group, n], i) => {
      names[`#r${i}`] = `${REQUESTS_PREFIX}${group}`;
      values[`:r${i}`] = n;
      return `#r${i} :r${i}`;
    });
    if (refused > 0) {
      names['#refused'] = 'refused';
      values[':refused'] = refused;
      adds.push('#refused :refused');
    }
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.clientUsage(clientId, day),
        UpdateExpression: `ADD ${adds.join(', ')} SET #ttl = :ttl, #day = :day`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  /** A client's usage of each day from `fromDay` to `toDay` (both included) that has any, in day order. */
  async usage(clientId: string, fromDay: string, toDay: string): Promise<ClientUsageDay[]> {
    const days: ClientUsageDay[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.clientUsagePartition,
          ':from': keys.clientUsage(clientId, fromDay).sk,
          ':to': keys.clientUsage(clientId, toDay).sk,
        },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) days.push(...(page.Items ?? []).map(toUsageDay));
    return days;
  }
}

function toUsageDay(item: Record<string, unknown>): ClientUsageDay {
  const requests: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(REQUESTS_PREFIX)) requests[name.slice(REQUESTS_PREFIX.length)] = Number(value);
  }
  return {
    day: String(item.day),
    requests,
    total: Object.values(requests).reduce((sum, n) => sum + n, 0),
    refused: Number(item.refused ?? 0),
  };
}
