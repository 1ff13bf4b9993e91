// Whether a person's sign-in has been revoked: the status of its family of refresh tokens
// (refresh-token-repository.ts), which is what a write that checks the sign-in reads. Apart from the
// token endpoints' repository, so that a write's bundle holds only this read.
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';

export class SignInFamilies {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Whether a sign-in (a family) has been revoked: one strongly consistent read of its status. A family
   * never written (a client without refresh tokens) and not revoked is not.
   */
  async isRevoked(familyId: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.refreshFamily(familyId),
        ProjectionExpression: '#status',
        ExpressionAttributeNames: { '#status': 'status' },
        ConsistentRead: true,
      }),
    );
    return Item?.status === 'revoked';
  }
}
