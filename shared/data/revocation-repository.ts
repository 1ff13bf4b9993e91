// Revoked sign-ins and accounts signed out everywhere, one small item each in the REVOKED partition, in
// the order they were revoked: what a verifier needs to refuse their access tokens on every route without
// a read per request. An item names a sign-in (the access token's sid) or an account (its user id) and a
// time, nothing else; it is read for as long as a token it refuses can live, and removed a day later.
import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';

/** What has been revoked since a time. */
export interface Revocations {
  /** Revoked sign-ins, by the sid their access tokens carry. */
  signIns: ReadonlySet<string>;
  /** Accounts signed out everywhere, by user id: the latest sign-out, epoch seconds. */
  signedOut: ReadonlyMap<string, number>;
}

/**
 * The items, for the writers that put them in their own transactions or requests: a family's revocation
 * (refresh-token-repository.ts), an account's sign-out (user-repository.ts), an erasure. Each is put
 * through an ItemStore, which gives it the time to live its kind declares.
 */
export const revocationItems = {
  signIn: (signIn: string, revokedAt: string) => ({
    key: keys.revocation(revokedAt, 'sign-in', signIn),
    attributes: { sign_in: signIn, revoked_at: revokedAt },
  }),
  account: (userId: string, signedOutAt: string) => ({
    key: keys.revocation(signedOutAt, 'account', userId),
    attributes: { user_id: userId, signed_out_at: signedOutAt, revoked_at: signedOutAt },
  }),
};

export class RevocationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Everything revoked from `since` on: one strongly consistent Query of the partition's recent end (a
   * page holds thousands of items), so a revocation written before it began is in the answer.
   */
  async since(since: Date): Promise<Revocations> {
    const signIns = new Set<string>();
    const signedOut = new Map<string, number>();
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :since',
        ExpressionAttributeValues: { ':pk': keys.revocationPartition, ':since': since.toISOString() },
        ProjectionExpression: 'sign_in, user_id, signed_out_at',
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        if (typeof item.sign_in === 'string') signIns.add(item.sign_in);
        if (typeof item.user_id === 'string' && typeof item.signed_out_at === 'string') {
          const at = Math.floor(Date.parse(item.signed_out_at) / 1000);
          signedOut.set(item.user_id, Math.max(at, signedOut.get(item.user_id) ?? at));
        }
      }
    }
    return { signIns, signedOut };
  }
}
