// Checked authorization requests awaiting their sign-in form, by a random id. The form carries only the
// id, so a posted form cannot change what was checked; a request is used up by deleting it, in one
// conditional write, so a form (or a double click) cannot be replayed to get a second code.
import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityScope } from '../auth/identity-claims';
import type { Locale } from '../config';
import type { Scope } from '../domain/groups';
import { itemKinds } from './item-kinds';
import { conditionHeld, ItemStore } from './items';
import { keys } from './keys';

export interface AuthorizationRequest {
  request_id: string;
  client_id: string;
  /** The client's display name, for the sign-in page. */
  client_name: string;
  /** Where the code goes, and whether the request named it (the token request then must too). */
  redirect_uri: string;
  redirect_uri_given: boolean;
  /** The scopes asked for, all of them the client's; the person's roles narrow them at sign-in. */
  scopes: Scope[];
  state?: string;
  /**
   * BASE64URL(SHA-256(code_verifier)); absent only for a confidential client's OpenID Connect request
   * with a nonce, which RFC 9700 section 2.1.1 lets defend the code instead.
   */
  code_challenge?: string;
  /** OpenID Connect: the identity scopes asked for (openid first), and the nonce to echo in the ID token. */
  identity_scopes?: IdentityScope[];
  nonce?: string;
  /** The language the page speaks, chosen when the request came in (ui_locales, Accept-Language). */
  locale?: Locale;
  /** The name the client suggested (login_hint), shown in the form. */
  login_hint?: string;
  /** Set once the password was right and a TOTP code is still to come: the account it opened. */
  password_user_id?: string;
  /** SHA-256 hex of the CSRF token the sign-in page was served with. */
  csrf_hash: string;
  created_at: string;
  /** ISO timestamp; the form is refused after it. */
  expires_at: string;
}

export class AuthorizationRequestRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  async save(request: AuthorizationRequest): Promise<void> {
    await this.items.put(
      itemKinds.authorizationRequest,
      keys.authorizationRequest(request.request_id),
      request,
      {
        ifAbsent: true,
      },
    );
  }

  /** The request while it has not expired nor been used; TTL deletion lags, so expiry is checked here. */
  async get(requestId: string, now = new Date()): Promise<AuthorizationRequest | undefined> {
    const stored = await this.items.get<AuthorizationRequest>(keys.authorizationRequest(requestId));
    return stored && Date.parse(stored.expires_at) > now.getTime() ? stored : undefined;
  }

  /** Records that the request's password was right for this account, while its TOTP code is awaited. */
  async passwordChecked(requestId: string, userId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.authorizationRequest(requestId),
        UpdateExpression: 'SET password_user_id = :user',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':user': userId },
      }),
    );
  }

  /** Deletes the request; false when it was already gone, so only one of two racing forms goes on. */
  async consume(requestId: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.authorizationRequest(requestId),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    );
  }
}
