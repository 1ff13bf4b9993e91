// Reads the listings (listings.ts) from the keys-only `listings` index: a page in entity id order, the
// entry at an offset (from the nearer end), every entry of a small listing, and how many entries a small listing has. Every
// read names one listing's partition, so a route's IAM policy names the listings it reads.
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import type { ListingName } from './listings';
import { offsetWalk } from './pages';
import { tableDesign } from './table';

/** An entry of a listing: what it is sorted by (listings.ts), and the id of the record that put it there. */
export interface ListingItem {
  sort: string;
  recordId: string;
}

const { partitionKey, sortKey } = tableDesign.listingsIndex;

export class ListingRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Up to `limit` entries after the entity id `after` (or from the start), and whether more follow: one
   * Query of `limit + 1` keys, whatever the listing's size.
   */
  async page(
    listing: ListingName,
    { limit, after }: { limit: number; after: string | undefined },
  ): Promise<{ items: ListingItem[]; hasMore: boolean }> {
    const items: ListingItem[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          ...this.range(listing, after),
          ExclusiveStartKey: startKey,
          Limit: limit + 1 - items.length,
        }),
      );
      items.push(...(page.Items ?? []).map(toListingItem));
      startKey = page.LastEvaluatedKey;
    } while (startKey && items.length <= limit);
    return { items: items.slice(0, limit), hasMore: items.length > limit };
  }

  /**
   * The sort key of the entry at `offset` (1-based), reading its keys from the start (an index entry
   * is about 100 bytes: some 40 a read unit), or from the nearer end when the listing's `size` is given
   * (`offsetWalk`); undefined past the end.
   */
  async sortAt(listing: ListingName, offset: number, size?: number): Promise<string | undefined> {
    const walk = offsetWalk(offset, size);
    if (!walk) return undefined;
    let remaining = walk.steps;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          ...this.range(listing, undefined),
          ScanIndexForward: walk.forward,
          ExclusiveStartKey: startKey,
          Limit: remaining,
        }),
      );
      const found = page.Items ?? [];
      remaining -= found.length;
      if (remaining === 0) return found.at(-1)?.[sortKey] as string | undefined;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return undefined;
  }

  /**
   * Every entry of a listing that stays small whatever the tenant's size (the organisations), or of the
   * part of one whose sort keys begin with `prefix` (a school's classes).
   */
  async all(listing: ListingName, prefix?: string): Promise<ListingItem[]> {
    const items: ListingItem[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({ ...this.range(listing, undefined, prefix), ExclusiveStartKey: startKey }),
      );
      items.push(...(page.Items ?? []).map(toListingItem));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** How many entries a small listing has, counted from its keys. */
  async count(listing: ListingName): Promise<number> {
    let count = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({ ...this.range(listing, undefined), Select: 'COUNT', ExclusiveStartKey: startKey }),
      );
      count += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return count;
  }

  private range(listing: ListingName, after: string | undefined, prefix?: string): QueryCommandInput {
    const bound =
      after !== undefined
        ? { condition: '#s > :s', value: after }
        : prefix !== undefined
          ? { condition: 'begins_with(#s, :s)', value: prefix }
          : undefined;
    return {
      TableName: this.tableName,
      IndexName: tableDesign.listingsIndex.name,
      KeyConditionExpression: bound ? `#p = :p AND ${bound.condition}` : '#p = :p',
      ExpressionAttributeNames: { '#p': partitionKey, ...(bound ? { '#s': sortKey } : {}) },
      ExpressionAttributeValues: {
        ':p': keys.listingPartition(listing),
        ...(bound ? { ':s': bound.value } : {}),
      },
    };
  }
}

const toListingItem = (item: Record<string, unknown>): ListingItem => ({
  sort: String(item[sortKey]),
  recordId: String(item[tableDesign.sortKey]),
});
