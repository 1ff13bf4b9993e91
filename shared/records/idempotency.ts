// Safe retries of POST (the IETF draft "The Idempotency-Key HTTP Header Field"): the first response to
// a caller's key is kept for 24 hours, written in the same transaction as the record it made, so a
// retry with the same key and body gets that response again, and nothing is written twice. The same
// key with another body gets 422.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Key, keys } from '../data/keys';
import type { Item } from '../data/record-items';
import { tableDesign, timeToLive } from '../data/table';
import { IdempotencyKeyReusedError, InvalidInputError } from '../domain/errors';
import type { RecordGroup } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../exchange';
import { header } from '../http/request';
import { RETRY, type Step } from './write-transaction';

export const IDEMPOTENCY_HOURS = 24;

/** Visible ASCII, as a structured-field string holds it (RFC 8941 section 3.3.3), up to 255 characters. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** A POST that carries an Idempotency-Key: where its first response is kept, and what its body was. */
export interface IdempotentPost {
  key: Key;
  fingerprint: string;
}

/** A retry answered with the first response, found when the write's transaction met the kept one. */
export class Replayed extends Error {
  constructor(readonly response: ApiResponse) {
    super('replayed');
  }
}

/** JSON with every object's keys sorted, so the same body sent with its fields reordered is the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The request's Idempotency-Key, if it sends one; a malformed one gets 400. */
export function idempotentPost(group: RecordGroup, request: ApiRequest): IdempotentPost | undefined {
  const sent = header(request.event, 'idempotency-key');
  if (sent === undefined) return undefined;
  // The draft sends the key as a structured-field string ("..."); a bare token is taken as well.
  const value = /^".*"$/.test(sent) ? sent.slice(1, -1) : sent;
  if (!KEY_PATTERN.test(value) || value.trim() === '') {
    throw new InvalidInputError('The Idempotency-Key is not valid.', [
      { name: 'Idempotency-Key', in: 'header', reason: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  const caller = request.auth?.sub ?? '';
  const { method, path } = request.event.requestContext.http;
  const fingerprint = createHash('sha256')
    .update(`${method} ${path}\n${canonical(request.body)}`)
    .digest('base64url');
  return { key: keys.idempotency(group, caller, value), fingerprint };
}

const replayedHeader = { 'idempotent-replayed': 'true' };

/** A kept list of ids; a response kept before they were kept names none. */
const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export class IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The first response to this key, if it is kept and was to the same body; 422 if to another body. */
  async previous(post: IdempotentPost): Promise<ApiResponse | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: post.key, ConsistentRead: true }),
    );
    return Item && this.live(Item) ? this.replay(post, Item) : undefined;
  }

  /** The transaction step keeping `response` as the first to this key; it fails if a live one is kept. */
  keep(post: IdempotentPost, response: ApiResponse): Step {
    const now = this.clock();
    const ttl = tableDesign.timeToLiveAttribute;
    return {
      action: {
        Put: {
          TableName: this.tableName,
          Item: {
            ...post.key,
            fingerprint: post.fingerprint,
            status: response.status ?? 200,
            headers: response.headers ?? {},
            body: gzipSync(JSON.stringify(response.body)),
            // What the response's audit event named, so a replay's event names the same records, and so
            // erasing a person (infra/cli/admin/people.ts) finds the responses about them.
            record_ids: response.audit?.recordIds ?? [],
            entity_ids: response.audit?.entityIds ?? [],
            [ttl]: timeToLive(new Date(now.getTime() + IDEMPOTENCY_HOURS * 3_600_000)),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
          ExpressionAttributeNames: { '#ttl': ttl },
          ExpressionAttributeValues: { ':now': timeToLive(now) },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      // A concurrent request with the same key committed first: answer as it was answered.
      onConditionFailed: (kept) => (kept ? new Replayed(this.replay(post, kept)) : RETRY),
    };
  }

  /** DynamoDB removes expired items some time after their ttl: one still there may be past it. */
  private live(item: Item): boolean {
    return Number(item[tableDesign.timeToLiveAttribute]) > timeToLive(this.clock());
  }

  private replay(post: IdempotentPost, item: Item): ApiResponse {
    if (item.fingerprint !== post.fingerprint) throw new IdempotencyKeyReusedError();
    return {
      status: Number(item.status),
      headers: { ...(item.headers as Record<string, string>), ...replayedHeader },
      body: JSON.parse(gunzipSync(item.body as Uint8Array).toString('utf8')),
      audit: { recordIds: idsOf(item.record_ids), entityIds: idsOf(item.entity_ids) },
    };
  }
}

/**
 * Runs a POST once per Idempotency-Key: a kept first response is given again; otherwise `write` runs,
 * keeping its response in its own transaction through the step `keep` builds.
 */
export async function once(
  store: IdempotencyStore,
  post: IdempotentPost | undefined,
  write: (keep: ((response: ApiResponse) => Step) | undefined) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  if (!post) return write(undefined);
  const earlier = await store.previous(post);
  if (earlier) return earlier;
  try {
    return await write((response) => store.keep(post, response));
  } catch (error) {
    if (error instanceof Replayed) return error.response;
    throw error;
  }
}
