// Counts of sign-in attempts (SIGN_IN_THROTTLE items), one item per subject: an account, a name no
// account has, or a client address. An attempt is counted before its password is checked, by one
// conditional update that admits it only while the window holds fewer attempts than it allows, so
// concurrent attempts can never get more checks between them than the limit. `allowed` only grows (a
// success forgives the attempts counted up to its own, a release gives back one attempt whose password
// was never wrong), so forgiving is one conditional write that a later or concurrent one never undoes.
// A name's counter is keyed by the SHA-256 of the name, so the table never holds a name someone merely
// tried.

import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from './keys';
import { timeToLive } from './table';
import { loginName } from './user-repository';

/** The throttle subject of an account, whichever of its names was typed: `account#<user id>`. */
export const accountThrottleSubject = (userId: string) => `account#${userId}`;

/** The throttle subject of a name no account has: `name#<sha256 hex of its login name>`. */
export const nameThrottleSubject = (name: string) =>
  `name#${createHash('sha256').update(loginName(name)).digest('hex')}`;

/** The throttle subject of a client address, as API Gateway saw it. */
export const addressThrottleSubject = (sourceIp: string) => `address#${sourceIp}`;

export interface ThrottleState {
  /** Attempts counted in the window, the newest one's number included. */
  attempts: number;
  /** How many attempts the window admits: the limit, plus those forgiven or given back. */
  allowed: number;
  /** ISO timestamp of the window's first attempt. */
  window_started: string;
  /** ISO timestamp; set when the window's attempts reached what it allows. */
  locked_until?: string;
}

export type Admission = { admitted: true; state: ThrottleState } | { admitted: false; state: ThrottleState };

/** The clock and limit an admission is decided by. */
export interface AdmissionTerms {
  now: Date;
  /** Windows that started at or before this are over. */
  windowStart: Date;
  limit: number;
  /** When the item may go: after both a window and a lock starting now are over. */
  expiresAt: Date;
}

/** How often the two writes are tried while concurrent attempts restart the window under them. */
const ADMIT_ROUNDS = 3;

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
   * Counts one attempt if the subject admits it: into the current window while it holds fewer attempts
   * than it allows, or into a new window once the current one and any lock are over. Otherwise counts
   * nothing and returns the state that refused it.
   */
  async admit(subject: string, terms: AdmissionTerms): Promise<Admission> {
    const values = {
      ':one': 1,
      ':limit': terms.limit,
      ':now': terms.now.toISOString(),
      ':window_start': terms.windowStart.toISOString(),
      ':ttl': timeToLive(terms.expiresAt),
    };
    for (let round = 0; round < ADMIT_ROUNDS; round++) {
      // One write for the usual cases: the subject's first attempt, or one more in its current window.
      const counted = await this.update(subject, {
        UpdateExpression:
          'ADD attempts :one SET allowed = if_not_exists(allowed, :limit), ' +
          'window_started = if_not_exists(window_started, :now), #ttl = :ttl',
        ConditionExpression:
          'attribute_not_exists(window_started) OR (window_started > :window_start AND attempts < allowed)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: values,
      });
      if (counted.done) return { admitted: true, state: counted.state };
      const restarted = await this.update(subject, {
        UpdateExpression:
          'SET attempts = :one, allowed = :limit, window_started = :now, #ttl = :ttl REMOVE locked_until',
        // An item without `allowed` was written by an older version of this counter: start afresh.
        ConditionExpression:
          'attribute_not_exists(allowed) OR ' +
          '(window_started <= :window_start AND (attribute_not_exists(locked_until) OR locked_until <= :now))',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: values,
      });
      if (restarted.done) return { admitted: true, state: restarted.state };
      // Both refused: closed, unless a concurrent attempt restarted the window in between.
      if (restarted.state && isClosed(restarted.state, terms)) {
        return { admitted: false, state: restarted.state };
      }
    }
    throw new Error('Could not count a sign-in attempt: too many concurrent writes to its counter.');
  }

  /** Locks the subject until `until`, if its window `windowStarted` is still full. */
  async lock(subject: string, windowStarted: string, until: Date, expiresAt: Date): Promise<void> {
    await this.update(subject, {
      UpdateExpression: 'SET locked_until = :until, #ttl = :ttl',
      ConditionExpression: 'window_started = :window AND attempts >= allowed',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':window': windowStarted,
        ':until': until.toISOString(),
        ':ttl': timeToLive(expiresAt),
      },
    });
  }

  /**
   * Forgives the attempts of window `windowStarted` up to attempt number `attempt`, its own included:
   * the window then allows `attempt + limit`. Attempts counted after it still count, and a success that
   * came later, having forgiven more already, is left as it is.
   */
  async forgiveUpTo(subject: string, windowStarted: string, attempt: number, limit: number): Promise<void> {
    await this.update(subject, {
      UpdateExpression: 'SET allowed = :allowed REMOVE locked_until',
      ConditionExpression: 'window_started = :window AND allowed < :allowed',
      ExpressionAttributeValues: { ':window': windowStarted, ':allowed': attempt + limit },
    });
  }

  /**
   * Gives back one attempt of window `windowStarted` whose password was never wrong (a success, or an
   * attempt another counter refused). The window then holds fewer attempts than it allows: no lock.
   */
  async release(subject: string, windowStarted: string): Promise<void> {
    await this.update(subject, {
      UpdateExpression: 'ADD allowed :one REMOVE locked_until',
      ConditionExpression: 'window_started = :window',
      ExpressionAttributeValues: { ':window': windowStarted, ':one': 1 },
    });
  }

  async clear(subject: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.signInThrottle(subject) }));
  }

  /** Forgets the attempts counted against an account and against each of its names. */
  async clearAccount(userId: string, names: string[]): Promise<void> {
    for (const subject of [accountThrottleSubject(userId), ...names.map(nameThrottleSubject)]) {
      await this.clear(subject);
    }
  }

  /**
   * A conditional update: the state after it, or when its condition did not hold, the state that made
   * it fail (none when there is no item).
   */
  private async update(
    subject: string,
    input: {
      UpdateExpression: string;
      ConditionExpression: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<{ done: true; state: ThrottleState } | { done: false; state?: ThrottleState }> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.signInThrottle(subject),
          ...input,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { done: true, state: toState(Attributes ?? {}) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return error.Item ? { done: false, state: toState(unmarshall(error.Item)) } : { done: false };
    }
  }
}

/** Whether a subject admits no attempt now: locked, or its current window full. */
function isClosed(state: ThrottleState, { now, windowStart }: AdmissionTerms): boolean {
  if (state.locked_until !== undefined && Date.parse(state.locked_until) > now.getTime()) return true;
  return Date.parse(state.window_started) > windowStart.getTime() && state.attempts >= state.allowed;
}

function toState(item: Record<string, unknown>): ThrottleState {
  return {
    attempts: Number(item.attempts ?? 0),
    allowed: Number(item.allowed ?? 0),
    window_started: String(item.window_started ?? ''),
    ...(typeof item.locked_until === 'string' ? { locked_until: item.locked_until } : {}),
  };
}
