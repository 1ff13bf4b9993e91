// Access tokens for the demo accounts, issued as the code flow issues them (their roles' scopes, for the
// demo client) with the tenant's own key: for tests about what a person may read, not how they sign in.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEMO_CLIENT_ID } from '../../infra/local/bootstrap';
import { DEMO_TENANT } from '../../infra/local/local-run';
import { rolesOf } from '../../shared/auth/person';
import { scopesOfRoles } from '../../shared/auth/roles';
import { TokenIssuer } from '../../shared/auth/tokens';
import { RecordRepository } from '../../shared/data/record-repository';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { UserRepository } from '../../shared/data/user-repository';

/** An issuer of the local run's tokens, signing with the key its token endpoint uses. */
export const localIssuer = (db: DynamoDBDocumentClient, tableName: string, url: string) =>
  new TokenIssuer(new SigningKeyRepository(db, tableName), {
    issuer: `${url}/api/sso`,
    audience: `${url}/api`,
    tenantId: DEMO_TENANT.id,
    accessTokenTtlSeconds: 900,
    // Reads the newest key for every token, so it follows the rotations a test makes.
    signingKeyRefreshSeconds: 0,
  });

export function personTokens(db: DynamoDBDocumentClient, tableName: string, url: string) {
  const users = new UserRepository(db, tableName);
  const records = new RecordRepository(db, tableName);
  const issuer = localIssuer(db, tableName, url);
  return async (username: string): Promise<string> => {
    const user = await users.byLogin(username);
    if (!user) throw new Error(`no demo account ${username}`);
    const entity = (await records.get('entities', user.entity_id))?.record;
    const roles = rolesOf(user, entity);
    const { token } = await issuer.issue({
      subject: user.user_id,
      clientId: DEMO_CLIENT_ID,
      scopes: scopesOfRoles(roles),
      person: { userId: user.user_id, entityId: user.entity_id, roles },
    });
    return token;
  };
}
