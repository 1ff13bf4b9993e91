// Sign-on sessions: one item per signed-in browser, kept by the SHA-256 of its cookie, so a second
// application's sign-in completes without a password while the session lives. A session ends when it
// has been idle too long, at its absolute end, at logout, or when its account signs out everywhere (a
// session started before the account's `signed_out_at` is no longer honoured).
import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { itemKinds } from './item-kinds';
import { conditionHeld, ItemStore } from './items';
import { keys } from './keys';

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
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  async create(session: SignOnSession): Promise<void> {
    await this.items.put(itemKinds.session, keys.session(session.session_hash), session, { ifAbsent: true });
  }

  /** The session while it lives; TTL deletion lags, so both ends are checked here. */
  async get(sessionHash: string, now = new Date()): Promise<SignOnSession | undefined> {
    const stored = await this.items.get<SignOnSession>(keys.session(sessionHash));
    if (!stored) return undefined;
    const alive = Math.min(Date.parse(stored.idle_expires_at), Date.parse(stored.expires_at)) > now.getTime();
    return alive ? stored : undefined;
  }

  /** Moves the idle end on after a use, never past the absolute end; false when the session is gone. */
  async touch(session: SignOnSession, idleSeconds: number, now = new Date()): Promise<boolean> {
    const idleEnd = Math.min(now.getTime() + idleSeconds * 1000, Date.parse(session.expires_at));
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.session(session.session_hash),
          UpdateExpression: 'SET idle_expires_at = :idle',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':idle': new Date(idleEnd).toISOString() },
        }),
      ),
    );
  }

  /**
   * Records a sign-in the session is about to issue a code for, so that its logout can revoke it; false
   * when the session has ended meanwhile (it must then issue nothing).
   */
  async addSignIn(sessionHash: string, signIn: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.session(sessionHash),
          UpdateExpression: 'ADD sign_ins :sign_in',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':sign_in': new Set([signIn]) },
        }),
      ),
    );
  }

  async delete(sessionHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.session(sessionHash) }));
  }
}
