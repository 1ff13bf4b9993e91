// Sign-in accounts of the tenant's people. An account's username and e-mail address are each claimed
// by a LOGIN item written in the same transaction as the account, so two accounts never share one.

import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  paginateQuery,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { itemKinds } from './item-kinds';
import { conditionHeld, ItemStore } from './items';
import { keys } from './keys';
import { revocationItems } from './revocation-repository';

export const userStatuses = ['active', 'locked', 'disabled'] as const;
export type UserStatus = (typeof userStatuses)[number];

export interface User {
  user_id: string;
  /** Lower-case, as signed in with. */
  username: string;
  /** Lower-case; a person may also sign in with it. */
  email?: string;
  /** scrypt, with its salt and cost (shared/auth/secret-hash.ts). */
  password_hash: string;
  status: UserStatus;
  /** The person entity this account belongs to, and through it their student, teacher, tutor and staff records. */
  entity_id: string;
  /** Admin rights; they take effect only for a person who has a staff record. */
  admin: boolean;
  /**
   * Sign-ins and sessions started before this time no longer refresh nor sign in: set when the password
   * changes, when the account is disabled, and by `users sign-out`.
   */
  signed_out_at?: string;
  /** The TOTP secret (RFC 6238), base32, when a second factor is enrolled. */
  totp_secret?: string;
  /** The time step of the last code accepted: a code is accepted once (RFC 6238 section 5.2). */
  totp_last_step?: number;
  created_at: string;
  updated_at: string;
}

/** How a username or e-mail address is compared: trimmed, Unicode-normalised and lower-cased. */
export const loginName = (name: string) => name.normalize('NFKC').trim().toLowerCase();

export class LoginTakenError extends Error {
  override name = 'LoginTakenError';
}

export class UserRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  get(userId: string): Promise<User | undefined> {
    return this.items.get<User>(keys.user(userId));
  }

  /** The account a username or e-mail address signs in to. */
  async byLogin(name: string): Promise<User | undefined> {
    const claim = await this.items.get<{ user_id?: unknown }>(keys.login(loginName(name)));
    return typeof claim?.user_id === 'string' ? this.get(claim.user_id) : undefined;
  }

  async list(): Promise<User[]> {
    const users: User[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPartition },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) users.push(...(page.Items ?? []).map(toUser));
    return users;
  }

  /**
   * Each account's person and username, and nothing else of it: what the export's OneRoster users need,
   * without the password hashes and second-factor secrets passing through the export.
   */
  async usernames(): Promise<Map<string, string>> {
    const byEntity = new Map<string, string>();
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userPartition },
        ProjectionExpression: '#e, #u',
        ExpressionAttributeNames: { '#e': 'entity_id', '#u': 'username' },
      },
    );
    for await (const page of pages)
      for (const { entity_id, username } of page.Items ?? []) {
        if (typeof entity_id !== 'string' || typeof username !== 'string') continue;
        // A person with two accounts is named by the first username in order, the same every run.
        const known = byEntity.get(entity_id);
        if (known === undefined || username < known) byEntity.set(entity_id, username);
      }
    return byEntity;
  }

  /** Creates an account with its login claims, or fails with LoginTakenError and writes nothing. */
  async create(user: User): Promise<void> {
    const names = [user.username, ...(user.email ? [user.email] : [])];
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: this.items.putInput(itemKinds.user, keys.user(user.user_id), user, { ifAbsent: true }) },
            ...names.map((name) => ({
              Put: this.items.putInput(
                itemKinds.login,
                keys.login(name),
                { user_id: user.user_id },
                { ifAbsent: true },
              ),
            })),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const taken = names.filter(
          (_, i) => error.CancellationReasons?.[i + 1]?.Code === 'ConditionalCheckFailed',
        );
        throw new LoginTakenError(
          taken.length > 0 ? `Already taken: ${taken.join(', ')}.` : 'The account already exists.',
        );
      }
      throw error;
    }
  }

  /**
   * Changes an existing account's status, password hash or admin rights. A new `signed_out_at` is recorded
   * first for the verifiers of every route (revocation-repository.ts), which then refuse the account's
   * access tokens issued before it.
   */
  async update(
    userId: string,
    changes: Partial<Pick<User, 'status' | 'password_hash' | 'admin' | 'signed_out_at' | 'totp_secret'>>,
  ): Promise<User> {
    if (changes.signed_out_at !== undefined) {
      const signedOut = revocationItems.account(userId, changes.signed_out_at);
      await this.items.put(itemKinds.revocation, signedOut.key, signedOut.attributes);
    }
    const entries = Object.entries({ ...changes, updated_at: new Date().toISOString() });
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.user(userId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toUser(Attributes ?? {});
  }

  /** Removes an account's TOTP secret; it signs in with its password alone until enrolled again. */
  async removeTotp(userId: string): Promise<User> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.user(userId),
        UpdateExpression: 'REMOVE totp_secret, totp_last_step SET updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toUser(Attributes ?? {});
  }

  /**
   * Records `step` as the account's last accepted TOTP step, if it is later than the last one: false
   * when it is not, so one code (or an older one) is never accepted twice, even by racing requests.
   */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.user(userId),
          UpdateExpression: 'SET totp_last_step = :step',
          ConditionExpression:
            'attribute_exists(totp_secret) AND (attribute_not_exists(totp_last_step) OR totp_last_step < :step)',
          ExpressionAttributeValues: { ':step': step },
        }),
      ),
    );
  }
}

function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...user } = item;
  return user as unknown as User;
}
