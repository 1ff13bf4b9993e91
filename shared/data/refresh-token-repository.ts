// Refresh tokens of people's sign-ins, kept by the SHA-256 of the token, and their families: every token
// rotated from one sign-in belongs to one family, which carries what the sign-in granted and is revoked
// as a whole. Rotation is one transaction, so a token is exchanged at most once; a used token stays until
// the family expires, so presenting it again is recognised as reuse (RFC 9700 section 4.14.2).
import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityScope } from '../auth/identity-claims';
import type { Scope } from '../domain/groups';
import { itemKinds } from './item-kinds';
import { ItemStore } from './items';
import { keys } from './keys';
import { revocationItems } from './revocation-repository';
import type { AuthenticationMethod } from './session-repository';
import { timeToLive } from './table';

export interface RefreshFamily {
  family_id: string;
  client_id: string;
  user_id: string;
  entity_id: string;
  /** What the sign-in granted; a refresh grants at most these. */
  scopes: Scope[];
  /** OpenID Connect: the identity scopes granted, and the sign-in's auth_time and amr for refreshed ID tokens. */
  identity_scopes?: IdentityScope[];
  auth_time?: number;
  amr?: AuthenticationMethod[];
  status: 'active' | 'revoked';
  created_at: string;
  /** ISO timestamp: the end of the sign-in, and of every token of the family. */
  expires_at: string;
  revoked_at?: string;
}

export interface RefreshToken {
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  issued_at: string;
  expires_at: string;
  /** When the token was exchanged for its successor. */
  used_at?: string;
}

export type Rotation = 'rotated' | 'reused' | 'revoked';

/**
 * Whether a transaction was cancelled because of this item: its condition failed, or another request was
 * writing it at that moment. Only exchanges and revocations write tokens and families, so either way the
 * item is not in the state the transaction needs.
 */
const blockedBy = (reason: { Code?: string | undefined } | undefined) =>
  reason?.Code === 'ConditionalCheckFailed' || reason?.Code === 'TransactionConflict';

/** How often a revocation is tried while a transaction holds the family; each holds it for milliseconds. */
const REVOKE_ATTEMPTS = 5;

export class RefreshTokenRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  /**
   * Writes a new family with its first token. Returns false, writing nothing, when the family exists
   * already: a reused authorization code revoked it before the first exchange got this far.
   */
  async start(family: RefreshFamily, token: RefreshToken): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: this.items.putInput(
                itemKinds.refreshFamily,
                keys.refreshFamily(family.family_id),
                family,
                {
                  ifAbsent: true,
                },
              ),
            },
            { Put: this.putToken(token) },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && blockedBy(error.CancellationReasons?.[0]))
        return false;
      throw error;
    }
  }

  /** A token is stored by its hash, which is its key and not one of its attributes. */
  async get(tokenHash: string): Promise<RefreshToken | undefined> {
    const token = await this.items.get<Omit<RefreshToken, 'token_hash'>>(keys.refreshToken(tokenHash));
    return token && { ...token, token_hash: tokenHash };
  }

  /** A family revoked before its sign-in completed holds only its status. */
  family(familyId: string): Promise<RefreshFamily | undefined> {
    return this.items.get<RefreshFamily>(keys.refreshFamily(familyId));
  }

  /**
   * Marks `used` used and writes `next`, in one transaction that holds only while the family is active
   * and `used` unused. 'reused': `used` was exchanged already (perhaps a moment ago, by a racing request);
   * 'revoked': the family is no longer active. Either way nothing is written.
   */
  async rotate(used: RefreshToken, next: RefreshToken, now: Date): Promise<Rotation> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: keys.refreshToken(used.token_hash),
                UpdateExpression: 'SET used_at = :now',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at)',
                ExpressionAttributeValues: { ':now': now.toISOString() },
              },
            },
            { Put: this.putToken(next) },
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: keys.refreshFamily(used.family_id),
                ConditionExpression: '#status = :active',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':active': 'active' },
              },
            },
          ],
        }),
      );
      return 'rotated';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [usedCheck, , familyCheck] = error.CancellationReasons ?? [];
      if (blockedBy(usedCheck)) return 'reused';
      if (blockedBy(familyCheck)) return 'revoked';
      throw error;
    }
  }

  /**
   * Revokes a family, every token of it with it. A family not written yet is written as revoked, to
   * expire at `expiresAt`, so that a sign-in still being completed cannot start it afterwards. Its
   * revocation is recorded first, for the verifiers of every route (revocation-repository.ts): should the
   * family's update fail, its access tokens are refused all the same, and the next attempt revokes it.
   */
  async revokeFamily(familyId: string, expiresAt: string, now = new Date()): Promise<void> {
    const revoked = revocationItems.signIn(familyId, now.toISOString());
    await this.items.put(itemKinds.revocation, revoked.key, revoked.attributes);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.revokeOnce(familyId, expiresAt, now);
        return;
      } catch (error) {
        if (!(error instanceof TransactionConflictException) || attempt === REVOKE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
      }
    }
  }

  private async revokeOnce(familyId: string, expiresAt: string, now: Date) {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.refreshFamily(familyId),
        UpdateExpression:
          'SET #status = :revoked, revoked_at = if_not_exists(revoked_at, :now), #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':revoked': 'revoked',
          ':now': now.toISOString(),
          ':ttl': timeToLive(expiresAt),
        },
      }),
    );
  }

  private putToken(token: RefreshToken) {
    const { token_hash, ...attributes } = token;
    return this.items.putInput(itemKinds.refreshToken, keys.refreshToken(token_hash), attributes, {
      ifAbsent: true,
    });
  }
}
