// Failed sign-in counters (SIGN_IN_THROTTLE items) as an administrator handles them: clearing an account's
// so that it can sign in again at once. An account's counter is named by the SHA-256 of its login name,
// so the table never holds a name someone merely tried.
import { createHash } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { loginName } from './user-repository';

/** The throttle subject of a username or e-mail address: `account#<sha256 hex of its login name>`. */
export const accountThrottleSubject = (name: string) =>
  `account#${createHash('sha256').update(loginName(name)).digest('hex')}`;

export class SignInThrottleRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Forgets the failed sign-ins counted against these names; names without a counter are fine. */
  async clearAccounts(names: string[]): Promise<void> {
    for (const name of names) {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.signInThrottle(accountThrottleSubject(name)),
        }),
      );
    }
  }
}
