// Authorization codes of the code flow, kept by the SHA-256 of the code. Redeeming marks a code used
// in one conditional write, so two racing redemptions cannot both succeed; a used code stays until it
// expires, so a second redemption is recognised as reuse and the tokens of the first can be revoked.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { IdentityScope } from '../auth/identity-claims';
import type { PersonRole } from '../auth/roles';
import { itemKinds } from './item-kinds';
import { ItemStore } from './items';
import { keys } from './keys';
import type { AuthenticationMethod } from './session-repository';

export interface AuthorizationCode {
  code_hash: string;
  client_id: string;
  /** The redirect URI the code was sent to, and whether the request named it (then the token request must). */
  redirect_uri: string;
  redirect_uri_given: boolean;
  /** BASE64URL(SHA-256(code_verifier)): only S256 is accepted. Absent when the request sent none. */
  code_challenge?: string;
  user_id: string;
  entity_id: string;
  roles: PersonRole[];
  scopes: string[];
  /** OpenID Connect: the identity scopes granted, the request's nonce, and how and when the person signed in. */
  identity_scopes?: IdentityScope[];
  nonce?: string;
  auth_time?: number;
  amr?: AuthenticationMethod[];
  /** The refresh-token family the code's tokens start, so that reusing the code can revoke it. */
  family_id: string;
  /** ISO timestamp; the code is refused after it. */
  expires_at: string;
  used_at?: string;
}

export type Redemption =
  | { outcome: 'redeemed'; code: AuthorizationCode }
  | { outcome: 'reused'; code: AuthorizationCode }
  | { outcome: 'unknown' };

export class AuthorizationCodeRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  async save(code: AuthorizationCode): Promise<void> {
    await this.items.put(itemKinds.authorizationCode, keys.authorizationCode(code.code_hash), code, {
      ifAbsent: true,
    });
  }

  /** Marks the code used unless it already was. Expiry and the request's other checks are the caller's. */
  async redeem(codeHash: string, now = new Date()): Promise<Redemption> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.authorizationCode(codeHash),
          UpdateExpression: 'SET used_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { outcome: 'redeemed', code: toCode(Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return error.Item
        ? { outcome: 'reused', code: toCode(unmarshall(error.Item)) }
        : { outcome: 'unknown' };
    }
  }
}

function toCode(item: Record<string, unknown>): AuthorizationCode {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...code } = item;
  return code as unknown as AuthorizationCode;
}
