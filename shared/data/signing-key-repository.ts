// The tenant's token signing keys. Private keys and public keys live in separate partitions, so a
// function that only verifies tokens reads (and is granted) the public partition alone.
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { JWK } from 'jose';
import { itemKinds } from './item-kinds';
import { ItemStore } from './items';
import { keys } from './keys';

export interface StoredKey {
  kid: string;
  created_at: string;
  jwk: JWK;
}

export class SigningKeyRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  /** The newest private key, which signs every new token. */
  async newestPrivateKey(): Promise<StoredKey | undefined> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.privateKeyPartition },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items[0] ? toStoredKey(Items[0]) : undefined;
  }

  /** Every published public key, newest first. */
  async publicKeys(): Promise<StoredKey[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.publicKeyPartition },
        ScanIndexForward: false,
        ConsistentRead: true,
      }),
    );
    return Items.map(toStoredKey);
  }

  /** Publishes a key pair: both halves in one transaction, so no token can be signed by an unpublished key. */
  async add(privateKey: StoredKey, publicKey: StoredKey): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: this.items.putInput(
              itemKinds.privateKey,
              keys.privateKey(privateKey.created_at, privateKey.kid),
              privateKey,
              { ifAbsent: true },
            ),
          },
          {
            Put: this.items.putInput(
              itemKinds.publicKey,
              keys.publicKey(publicKey.created_at, publicKey.kid),
              publicKey,
              { ifAbsent: true },
            ),
          },
        ],
      }),
    );
  }

  /**
   * Publishes a public key alone, for a deployed tenant whose private key lives in Secrets Manager.
   * Publishing the same key again changes nothing, so a retried deployment step is harmless.
   */
  async publish(publicKey: StoredKey): Promise<void> {
    await this.items.put(itemKinds.publicKey, keys.publicKey(publicKey.created_at, publicKey.kid), publicKey);
  }

  /**
   * Unpublishes a key: its public half, and its private half where the table keeps it (the local run).
   * Tokens it signed stop verifying once verifiers re-read the key set.
   */
  async retire(key: Pick<StoredKey, 'kid' | 'created_at'>): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.tableName, Key: keys.publicKey(key.created_at, key.kid) } },
          { Delete: { TableName: this.tableName, Key: keys.privateKey(key.created_at, key.kid) } },
        ],
      }),
    );
  }
}

function toStoredKey(item: Record<string, unknown>): StoredKey {
  return { kid: String(item.kid), created_at: String(item.created_at), jwk: item.jwk as JWK };
}
