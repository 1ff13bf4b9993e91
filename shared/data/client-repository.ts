// OAuth clients of the tenant: id, display name, hashed secret and the scopes it may ask for.
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../domain/groups';
import { keys } from './keys';

export interface OAuthClient {
  client_id: string;
  name: string;
  secret_hash: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
}

export class ClientRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: string): Promise<OAuthClient | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.client(clientId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, ...client } = Item;
    return client as OAuthClient;
  }

  async put(client: OAuthClient): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...keys.client(client.client_id), ...client } }),
    );
  }
}
