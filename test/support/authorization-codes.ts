// Authorization codes arranged as the sign-in page issues them (sso design: 32 random bytes, stored by
// SHA-256, 60 seconds to live, a fresh family id, the person's role scopes the client may have), with real
// PKCE pairs from a standard client library, so the token endpoint is tested without the sign-in page.
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { DEMO_APP_ID, DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from '../../infra/local/bootstrap';
import type { IdentityScope } from '../../shared/auth/identity-claims';
import { newOpaqueToken, opaqueTokenHash } from '../../shared/auth/opaque-token';
import { type Person, rolesOf } from '../../shared/auth/person';
import { scopesOfRoles } from '../../shared/auth/roles';
import {
  type AuthorizationCode,
  AuthorizationCodeRepository,
} from '../../shared/data/authorization-code-repository';
import { ClientRepository } from '../../shared/data/client-repository';
import { basic, expectTokens, postForm } from './oauth';
import { DEMO_SECRET, type TestApi } from './test-api';

export interface ArrangedCode {
  code: string;
  verifier: string;
  clientId: string;
  redirectUri: string;
  person: Person;
  scopes: string[];
  familyId: string;
}

export interface CodeOptions {
  username?: string;
  clientId?: string;
  redirectUri?: string;
  /** Whether the authorization request named the redirect URI (then the exchange must too). */
  redirectUriGiven?: boolean;
  /** Seconds from now; negative for a code that has expired. */
  expiresIn?: number;
  /** The challenge to store instead of the verifier's S256 hash. */
  challenge?: string;
  /** OpenID Connect scopes the sign-in granted (openid first), so the exchange answers an ID token. */
  identityScopes?: IdentityScope[];
}

export async function pkcePair() {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

/** What arranging needs: the table, and its accounts and records. */
type Arranging = Pick<TestApi, 'db' | 'tableName' | 'users' | 'records'>;

export async function arrangeCode(api: Arranging, options: CodeOptions = {}): Promise<ArrangedCode> {
  const {
    username = 'teacher',
    clientId = DEMO_APP_ID,
    redirectUri = DEMO_REDIRECT_URIS[0] as string,
  } = options;
  const user = await api.users.byLogin(username);
  if (!user) throw new Error(`no demo account ${username}`);
  const client = await new ClientRepository(api.db, api.tableName).get(clientId);
  const entity = await api.records.get('entities', user.entity_id);
  const roles = rolesOf(user, entity?.record);
  const scopes = scopesOfRoles(roles).filter((scope) => client?.scopes.includes(scope));
  const { verifier, challenge } = await pkcePair();
  const code = newOpaqueToken();
  const stored: AuthorizationCode = {
    code_hash: opaqueTokenHash(code),
    client_id: clientId,
    redirect_uri: redirectUri,
    redirect_uri_given: options.redirectUriGiven ?? true,
    code_challenge: options.challenge ?? challenge,
    user_id: user.user_id,
    entity_id: user.entity_id,
    roles,
    scopes,
    ...(options.identityScopes
      ? { identity_scopes: options.identityScopes, auth_time: Math.floor(Date.now() / 1000), amr: ['pwd'] }
      : {}),
    family_id: randomUUID(),
    expires_at: new Date(Date.now() + (options.expiresIn ?? 60) * 1000).toISOString(),
  };
  await new AuthorizationCodeRepository(api.db, api.tableName).save(stored);
  return {
    code,
    verifier,
    clientId,
    redirectUri,
    person: { userId: user.user_id, entityId: user.entity_id, roles },
    scopes,
    familyId: stored.family_id,
  };
}

/** How each demo client authenticates: the public app by its client_id, the confidential one by Basic. */
export function clientAuth(clientId: string): {
  params: Record<string, string>;
  headers: Record<string, string>;
} {
  if (clientId === DEMO_CLIENT_ID)
    return { params: {}, headers: { authorization: basic(clientId, DEMO_SECRET) } };
  return { params: { client_id: clientId }, headers: {} };
}

/** The token request that exchanges an arranged code, with any parameter changed or left out (undefined). */
export function exchangeCode(
  api: Pick<TestApi, 'url'>,
  arranged: ArrangedCode,
  changes: Record<string, string | undefined> = {},
  headers?: Record<string, string>,
) {
  const auth = clientAuth(arranged.clientId);
  const params: Record<string, string | undefined> = {
    grant_type: 'authorization_code',
    code: arranged.code,
    code_verifier: arranged.verifier,
    redirect_uri: arranged.redirectUri,
    ...auth.params,
    ...changes,
  };
  const given = Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return postForm(api, 'token', given, headers ?? auth.headers);
}

/** A completed sign-in: the tokens a code exchange answers, with the code they came from. */
export async function signIn(api: Arranging & Pick<TestApi, 'url'>, options: CodeOptions = {}) {
  const arranged = await arrangeCode(api, options);
  const tokens = await expectTokens(await exchangeCode(api, arranged));
  if (!tokens.refresh_token) throw new Error('the code exchange answered no refresh token');
  return { ...arranged, tokens, refreshToken: tokens.refresh_token };
}

/** A refresh_token grant request by the demo client that owns the token. */
export function refresh(
  api: Pick<TestApi, 'url'>,
  refreshToken: string,
  clientId: string = DEMO_APP_ID,
  extra: Record<string, string> = {},
) {
  const auth = clientAuth(clientId);
  return postForm(
    api,
    'token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...auth.params, ...extra },
    auth.headers,
  );
}
