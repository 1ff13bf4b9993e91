// OAuth clients of the tenant: id, display name, type, the scopes it may ask for, the grants it may use,
// the redirect URIs registered for the code flow and logout, and its rate limit; and its secrets, one
// item each, holding only a scrypt hash, so that a client holds two while a vendor rotates.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GrantType } from '../auth/oauth-terms';
import type { Profile, ReadyProfileName } from '../clients/profiles';
import { StateConflictError } from '../domain/errors';
import type { Scope } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { itemKinds } from './item-kinds';
import { conditionHeld, ItemStore, ifConditionHolds } from './items';
import { keys } from './keys';

export interface OAuthClient {
  client_id: string;
  name: string;
  /** Absent on clients registered before it was stored: public exactly when they have no `secret_hash`. */
  type?: 'confidential' | 'public';
  /**
   * The one secret of a client registered before secrets were items of their own (scrypt); it stays
   * valid, and is listed as the secret `initial`, until it is revoked.
   */
  secret_hash?: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
  updated_at?: string;
  /** When it was last disabled: the tokens issued until then are refused, even after it is enabled again. */
  disabled_at?: string;
  /** Absent on clients registered before people could sign in: client_credentials only. */
  grant_types?: GrantType[];
  /** Where the code flow may send a person back; compared exactly. */
  redirect_uris?: string[];
  /** Where the logout endpoint may send a person after signing out (RP-Initiated Logout); compared exactly. */
  post_logout_redirect_uris?: string[];
  /** Requests a minute; LIMITS.clientRequestsPerMinute when absent. */
  rate_limit?: number;
  /** The fields it may read, per group and OneRoster object: a ready profile's name, or its own. */
  profile?: ReadyProfileName | Profile;
  /** The schools (organisation entity ids) whose records alone it reads and writes; all when absent. */
  schools?: string[];
  /** Moved on by every secret added, so that two added at once cannot both pass the limit of live secrets. */
  secrets_version?: number;
}

/** A client's credential: the secret itself is shown once, when it is made, and never kept. */
export interface ClientSecret {
  client_id: string;
  secret_id: string;
  secret_hash: string;
  created_at: string;
  expires_at?: string;
  last_used_at?: string;
}

/** A client changed between being read and being written: read it again. */
export class ClientChangedError extends StateConflictError {
  constructor() {
    super('The client changed while this request was being made: read it again and retry.');
  }
}

/** Whether a secret has not expired: one without `expires_at` never does. */
export const isLiveSecret = (secret: Pick<ClientSecret, 'expires_at'>, now: Date) =>
  secret.expires_at === undefined || Date.parse(secret.expires_at) > now.getTime();

/** The id the secret of a client registered before secrets were items of their own is listed under. */
export const INITIAL_SECRET_ID = 'initial';

/**
 * What every route's verifier and rate limiter need of a client, read for every client at once: its own
 * item (CLIENT_POLICY), written with the client's.
 */
export interface ClientPolicy {
  client_id: string;
  status: OAuthClient['status'];
  disabled_at?: string;
  rate_limit?: number;
  profile?: ReadyProfileName | Profile;
  schools?: string[];
}

export const grantTypesOf = (client: OAuthClient): GrantType[] =>
  client.grant_types ?? ['client_credentials'];
export const isPublicClient = (client: OAuthClient) =>
  client.type === undefined ? client.secret_hash === undefined : client.type === 'public';
export const rateLimitOf = (client: Pick<OAuthClient, 'rate_limit'>) =>
  client.rate_limit ?? LIMITS.clientRequestsPerMinute;

/** The registration fields an administrator sets, all at once. */
export type Registration = Pick<
  OAuthClient,
  | 'name'
  | 'scopes'
  | 'grant_types'
  | 'redirect_uris'
  | 'post_logout_redirect_uris'
  | 'rate_limit'
  | 'profile'
  | 'schools'
>;

const withoutKeys = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
};

/**
 * A write's condition that the client is still as read: its registration and status are changed only by
 * writes that move `updated_at` on (or, on a client never changed, leave none).
 */
const unchangedSince = (read: OAuthClient) => ({
  ConditionExpression: 'updated_at = :read OR (attribute_not_exists(updated_at) AND created_at = :created)',
  ExpressionAttributeValues: { ':read': read.updated_at ?? '', ':created': read.created_at },
});

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
    return this.items.query<OAuthClient>(keys.clientPartition);
  }

  /**
   * Every client's policy: what a verifier keeps of them. A client registered before policies were kept
   * apart has none until it next changes, and is read as active with the default limit.
   */
  policies(): Promise<ClientPolicy[]> {
    return this.items.query<ClientPolicy>(keys.clientPolicyPartition);
  }

  /** Writes a client whole, and its policy with it. */
  async put(client: OAuthClient): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: this.items.putInput(itemKinds.client, keys.client(client.client_id), client) },
          { Put: this.policyPut(client) },
        ],
      }),
    );
  }

  /** Registers a client and its first secret together, or neither. */
  async create(client: OAuthClient, secret: ClientSecret | undefined): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: this.items.putInput(itemKinds.client, keys.client(client.client_id), client, {
              ifAbsent: true,
            }),
          },
          { Put: this.policyPut(client) },
          ...(secret ? [{ Put: this.secretPut(secret) }] : []),
        ],
      }),
    );
  }

  /**
   * Sets a client's registration (absent optional fields removed) and its status, keeping its type and
   * secrets; the client after it, or undefined when there is no such client.
   */
  async replace(
    clientId: string,
    registration: Registration,
    status: OAuthClient['status'],
    now: string,
    /** Whether this replace disables an active client: its tokens issued until now are refused. */
    disabling: boolean,
  ): Promise<OAuthClient | undefined> {
    const current = await this.get(clientId);
    if (!current) return undefined;
    const set: Record<string, unknown> = {
      ...registration,
      status,
      updated_at: now,
      ...(disabling ? { disabled_at: now } : {}),
    };
    const present = Object.entries(set).filter(([, value]) => value !== undefined);
    const absent = Object.keys(set).filter((name) => set[name] === undefined);
    const replaced = { ...current, ...Object.fromEntries(present) } as OAuthClient;
    for (const name of absent) delete (replaced as unknown as Record<string, unknown>)[name];
    const written = await this.inTransaction([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.client(clientId),
          UpdateExpression:
            `SET ${present.map(([name]) => `#${name} = :${name}`).join(', ')}` +
            (absent.length > 0 ? ` REMOVE ${absent.map((name) => `#${name}`).join(', ')}` : ''),
          ...unchangedSince(current),
          ExpressionAttributeNames: Object.fromEntries(Object.keys(set).map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(present.map(([name, value]) => [`:${name}`, value])),
            ...unchangedSince(current).ExpressionAttributeValues,
          },
        },
      },
      { Put: this.policyPut(replaced) },
    ]);
    if (!written) throw new ClientChangedError();
    return replaced;
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
    return updated?.Attributes ? withoutKeys<OAuthClient>(updated.Attributes) : undefined;
  }

  /**
   * Stops an active client from getting tokens, and its tokens issued until now from being honoured;
   * false when there is no active client of that id (none at all, or one already disabled).
   */
  async revoke(clientId: string, now = new Date().toISOString()): Promise<boolean> {
    const current = await this.get(clientId);
    if (current?.status !== 'active') return false;
    const written = await this.inTransaction([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.client(clientId),
          UpdateExpression: 'SET #status = :revoked, disabled_at = :now, updated_at = :now',
          ...unchangedSince(current),
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':revoked': 'revoked',
            ':now': now,
            ...unchangedSince(current).ExpressionAttributeValues,
          },
        },
      },
      { Put: this.policyPut({ ...current, status: 'revoked', disabled_at: now }) },
    ]);
    if (!written) throw new ClientChangedError();
    return true;
  }

  /** A client's secrets, oldest first (their ids are random: sorted here by creation). */
  async secrets(clientId: string): Promise<ClientSecret[]> {
    const secrets = await this.items.query<ClientSecret>(keys.clientSecretPartition, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :client)',
      ExpressionAttributeValues: { ':client': `${clientId}#` },
    });
    return secrets.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  secret(clientId: string, secretId: string): Promise<ClientSecret | undefined> {
    return this.items.get<ClientSecret>(keys.clientSecret(clientId, secretId));
  }

  /**
   * Adds a secret to an active client whose secrets are still as `seenVersion` says (the version read
   * with the secrets that were counted); false when the client changed meanwhile or is not active.
   */
  async addSecret(secret: ClientSecret, seenVersion: number | undefined): Promise<boolean> {
    return this.inTransaction([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.client(secret.client_id),
          UpdateExpression: 'SET secrets_version = :next',
          ConditionExpression: `${
            seenVersion === undefined ? 'attribute_not_exists(secrets_version)' : 'secrets_version = :seen'
          } AND #status = :active`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':next': (seenVersion ?? 0) + 1,
            ':active': 'active',
            ...(seenVersion === undefined ? {} : { ':seen': seenVersion }),
          },
        },
      },
      { Put: this.secretPut(secret) },
    ]);
  }

  /**
   * Removes a secret, or the initial one held on the client, moving the client's secrets on; false when
   * there was none.
   */
  async removeSecret(clientId: string, secretId: string): Promise<boolean> {
    if (secretId === INITIAL_SECRET_ID) {
      return conditionHeld(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.client(clientId),
            UpdateExpression: 'REMOVE secret_hash',
            ConditionExpression: 'attribute_exists(secret_hash)',
          }),
        ),
      );
    }
    return this.inTransaction([
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.clientSecret(clientId, secretId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.client(clientId),
          UpdateExpression: 'SET secrets_version = if_not_exists(secrets_version, :zero) + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
    ]);
  }

  /** Notes when a secret was last used to get a token; a secret revoked meanwhile is not written back. */
  async secretUsed(clientId: string, secretId: string, at: string): Promise<void> {
    await ifConditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.clientSecret(clientId, secretId),
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  }

  /** Writes a transaction; false when one of its conditions failed. */
  private async inTransaction(
    TransactItems: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>,
  ): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems }));
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return false;
      throw error;
    }
  }

  private policyPut(client: OAuthClient) {
    const policy: ClientPolicy = {
      client_id: client.client_id,
      status: client.status,
      ...(client.disabled_at ? { disabled_at: client.disabled_at } : {}),
      ...(client.rate_limit === undefined ? {} : { rate_limit: client.rate_limit }),
      ...(client.profile === undefined ? {} : { profile: client.profile }),
      ...(client.schools === undefined ? {} : { schools: client.schools }),
    };
    return this.items.putInput(itemKinds.clientPolicy, keys.clientPolicy(client.client_id), policy);
  }

  private secretPut(secret: ClientSecret) {
    return this.items.putInput(
      itemKinds.clientSecret,
      keys.clientSecret(secret.client_id, secret.secret_id),
      secret,
      {
        ifAbsent: true,
      },
    );
  }
}
