// Sign-on sessions: one item per signed-in browser, kept by the SHA-256 of its cookie, so a second
// application's sign-in completes without a password while the session lives. A session ends when it
// has been idle too long, at its absolute end, at logout, or when its account signs out everywhere (a
// session started before the account's `signed_out_at` is no longer honoured).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { timeToLive } from './table';

/** How a person proved who they are (OpenID Connect `amr`, RFC 8176): a password, then a TOTP code. */
export type AuthenticationMethod = 'pwd' | 'otp' | 'mfa';

export interface SignOnSession {
  /** SHA-256 of the cookie's value. */
  session_hash: string;
  user_id: string;
  /** When the person last typed their password (OpenID Connect `auth_time`), epoch seconds. */
  auth_time: number;
  amr: AuthenticationMethod[];
  created_at: string;
  /** The session ends at the earlier of these: unused for the idle lifetime, or its absolute end. */
  idle_expires_at: string;
  expires_at: string;
  /** The sign-ins (refresh families, `sid`) whose codes the session issued: what its logout revokes. */
  sign_ins?: Set<string>;
}

export class SessionRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(session: SignOnSession): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.session(session.session_hash), ...session, ttl: timeToLive(session.expires_at) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /** The session while it lives; TTL deletion lags, so both ends are checked here. */
  async get(sessionHash: string, now = new Date()): Promise<SignOnSession | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.session(sessionHash), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ttl: _ttl, ...session } = Item;
    const stored = session as SignOnSession;
    const alive = Math.min(Date.parse(stored.idle_expires_at), Date.parse(stored.expires_at)) > now.getTime();
    return alive ? stored : undefined;
  }

  /** Moves the idle end on after a use, never past the absolute end; false when the session is gone. */
  async touch(session: SignOnSession, idleSeconds: number, now = new Date()): Promise<boolean> {
    const idleEnd = Math.min(now.getTime() + idleSeconds * 1000, Date.parse(session.expires_at));
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.session(session.session_hash),
          UpdateExpression: 'SET idle_expires_at = :idle',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':idle': new Date(idleEnd).toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /**
   * Records a sign-in the session is about to issue a code for, so that its logout can revoke it; false
   * when the session has ended meanwhile (it must then issue nothing).
   */
  async addSignIn(sessionHash: string, signIn: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.session(sessionHash),
          UpdateExpression: 'ADD sign_ins :sign_in',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':sign_in': new Set([signIn]) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async delete(sessionHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.session(sessionHash) }));
  }
}
