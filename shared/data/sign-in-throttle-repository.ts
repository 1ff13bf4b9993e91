// Counts of failed sign-ins (SIGN_IN_THROTTLE items), one item per subject: an account name or a client
// address. The sign-in form counts failures into them (how many the current window holds, when it
// started, until when the subject is locked); an administrator clears an account's so that it can sign
// in again at once. Counting is one conditional update, so concurrent failures are all counted. An
// account's counter is named by the SHA-256 of its login name, so the table never holds a name someone
// merely tried.

import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { timeToLive } from './table';
import { loginName } from './user-repository';

/** The throttle subject of a username or e-mail address: `account#<sha256 hex of its login name>`. */
export const accountThrottleSubject = (name: string) =>
  `account#${createHash('sha256').update(loginName(name)).digest('hex')}`;

/** The throttle subject of a client address, as API Gateway saw it. */
export const addressThrottleSubject = (sourceIp: string) => `address#${sourceIp}`;

export interface ThrottleState {
  failures: number;
  /** ISO timestamp of the window's first failure. */
  window_started: string;
  /** ISO timestamp; absent when the subject was never locked. */
  locked_until?: string;
}

export class SignInThrottleRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(subject: string): Promise<ThrottleState | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.signInThrottle(subject), ConsistentRead: true }),
    );
    return Item ? toState(Item) : undefined;
  }

  /**
   * Counts one failure: into the current window when it started after `windowStart`, else into a new
   * window starting `now`. The item lives until `expiresAt`. Returns the state after counting.
   */
  async addFailure(subject: string, now: Date, windowStart: Date, expiresAt: Date): Promise<ThrottleState> {
    const values = {
      ':one': 1,
      ':now': now.toISOString(),
      ':window_start': windowStart.toISOString(),
      ':ttl': timeToLive(expiresAt),
    };
    // Two tries each way: a concurrent failure may have started the new window in between.
    for (let attempt = 0; attempt < 2; attempt++) {
      const counted = await this.update(
        subject,
        'ADD failures :one SET window_started = if_not_exists(window_started, :now), #ttl = :ttl',
        'attribute_not_exists(window_started) OR window_started > :window_start',
        values,
      );
      if (counted) return counted;
      const restarted = await this.update(
        subject,
        'SET failures = :one, window_started = :now, #ttl = :ttl',
        'window_started <= :window_start',
        values,
      );
      if (restarted) return restarted;
    }
    throw new Error('Could not count a failed sign-in: too many concurrent writes to its counter.');
  }

  async lock(subject: string, until: Date, expiresAt: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.signInThrottle(subject),
        UpdateExpression: 'SET locked_until = :until, #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':until': until.toISOString(), ':ttl': timeToLive(expiresAt) },
      }),
    );
  }

  async clear(subject: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.signInThrottle(subject) }));
  }

  /** Forgets the failed sign-ins counted against these names; names without a counter are fine. */
  async clearAccounts(names: string[]): Promise<void> {
    for (const name of names) await this.clear(accountThrottleSubject(name));
  }

  /** The state after a conditional update, or nothing when its condition did not hold. */
  private async update(
    subject: string,
    expression: string,
    condition: string,
    values: Record<string, unknown>,
  ): Promise<ThrottleState | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.signInThrottle(subject),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toState(Attributes ?? {});
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}

function toState(item: Record<string, unknown>): ThrottleState {
  return {
    failures: Number(item.failures ?? 0),
    window_started: String(item.window_started ?? ''),
    ...(typeof item.locked_until === 'string' ? { locked_until: item.locked_until } : {}),
  };
}
