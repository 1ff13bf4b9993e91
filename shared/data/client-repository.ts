// OAuth clients of the tenant: id, display name, hashed secret (none for a public client), the scopes
// it may ask for, the grants it may use and the redirect URIs registered for the code flow and logout.
import { type DynamoDBDocumentClient, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GrantType } from '../auth/oauth-terms';
import type { Scope } from '../domain/groups';
import { itemKinds } from './item-kinds';
import { conditionHeld, ItemStore, ifConditionHolds } from './items';
import { keys } from './keys';

export interface OAuthClient {
  client_id: string;
  name: string;
  /** scrypt; absent for a public client (a phone app), which proves itself with PKCE alone. */
  secret_hash?: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
  /** Absent on clients registered before people could sign in: client_credentials only. */
  grant_types?: GrantType[];
  /** Where the code flow may send a person back; compared exactly. */
  redirect_uris?: string[];
  /** Where the logout endpoint may send a person after signing out (RP-Initiated Logout); compared exactly. */
  post_logout_redirect_uris?: string[];
}

export const grantTypesOf = (client: OAuthClient): GrantType[] =>
  client.grant_types ?? ['client_credentials'];
export const isPublicClient = (client: OAuthClient) => client.secret_hash === undefined;

export class ClientRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  get(clientId: string): Promise<OAuthClient | undefined> {
    return this.items.get<OAuthClient>(keys.client(clientId));
  }

  async list(): Promise<OAuthClient[]> {
    const clients: OAuthClient[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.clientPartition },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) clients.push(...(page.Items ?? []).map(toClient));
    return clients;
  }

  async put(client: OAuthClient): Promise<void> {
    await this.items.put(itemKinds.client, keys.client(client.client_id), client);
  }

  /**
   * Sets where logout may send an active client's people (an empty list removes them), changing nothing
   * else: a revoked client stays revoked, a removed one is not written back. The client after it, or
   * undefined when there is no active client of that id.
   */
  async setPostLogoutRedirectUris(clientId: string, uris: string[]): Promise<OAuthClient | undefined> {
    const updated = await ifConditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.client(clientId),
          UpdateExpression:
            uris.length > 0 ? 'SET post_logout_redirect_uris = :uris' : 'REMOVE post_logout_redirect_uris',
          ConditionExpression: 'attribute_exists(pk) AND #status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ...(uris.length > 0 ? { ':uris': uris } : {}) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toClient(updated.Attributes) : undefined;
  }

  /** Stops a client from getting tokens; returns false when there is no such client. */
  async revoke(clientId: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.client(clientId),
          UpdateExpression: 'SET #status = :revoked',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked' },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    );
  }
}

function toClient(item: Record<string, unknown>): OAuthClient {
  const { pk: _pk, sk: _sk, ...client } = item;
  return client as unknown as OAuthClient;
}
