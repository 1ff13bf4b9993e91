// What the authorization endpoint sends back for a person who has proved who they are, by the sign-in
// form or by a live sign-on session: a single-use code for the scopes asked for that their roles grant
// (RFC 6749 section 4.1.2), carrying what the ID token will say of the sign-in (OpenID Connect Core
// 1.0 section 3.1.2.5); or access_denied when they may read nothing the app asked for and it did not
// ask to know who they are. The sign-on session records each sign-in it issues a code for, so that its
// logout revokes them.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { AuthorizationCodeRepository } from '../data/authorization-code-repository';
import type { AuthorizationRequest } from '../data/authorization-request-repository';
import type { RecordRepository } from '../data/record-repository';
import type { SessionRepository, SignOnSession } from '../data/session-repository';
import type { User } from '../data/user-repository';
import type { AuthorizationError } from './oauth-terms';
import { newOpaqueToken, opaqueTokenHash } from './opaque-token';
import { rolesOf } from './person';
import { scopesOfRoles } from './roles';

/** A code is exchanged at once by the client; a minute covers a slow network (RFC 6749 section 4.1.2). */
export const CODE_TTL_SECONDS = 60;

export type AuthorizationResponse =
  | { code: string; state?: string }
  | { error: AuthorizationError; error_description: string; state?: string };

/**
 * Whether the account must give a TOTP code after its password: when it has enrolled one, and when the
 * tenant requires one of accounts with admin rights.
 */
export const needsSecondFactor = (user: User, config: Pick<Config, 'adminTotpRequired'>) =>
  user.totp_secret !== undefined || (config.adminTotpRequired && user.admin);

type CodeRequest = Pick<
  AuthorizationRequest,
  | 'client_id'
  | 'redirect_uri'
  | 'redirect_uri_given'
  | 'code_challenge'
  | 'scopes'
  | 'identity_scopes'
  | 'nonce'
  | 'state'
>;

export async function authorizationResponse(
  services: { records: RecordRepository; codes: AuthorizationCodeRepository; sessions: SessionRepository },
  request: CodeRequest,
  user: User,
  session: Pick<SignOnSession, 'session_hash' | 'auth_time' | 'amr'>,
): Promise<AuthorizationResponse> {
  const state = request.state === undefined ? {} : { state: request.state };
  const entity = (await services.records.get('entities', user.entity_id))?.record;
  const roles = rolesOf(user, entity);
  const granted = scopesOfRoles(roles);
  const scopes = request.scopes.filter((scope) => granted.includes(scope));
  const identityScopes = request.identity_scopes ?? [];
  // The request itself was valid (its scopes are the client's, checked before sign-in), so this is the
  // server declining for this person (RFC 6749 section 4.1.2.1), not invalid_scope.
  if (scopes.length === 0 && !identityScopes.includes('openid')) {
    return {
      error: 'access_denied',
      error_description: 'This account may not read anything the app asked for.',
      ...state,
    };
  }
  const signIn = randomUUID();
  if (!(await services.sessions.addSignIn(session.session_hash, signIn))) {
    return { error: 'login_required', error_description: 'The sign-on session has ended.', ...state };
  }
  const code = newOpaqueToken();
  await services.codes.save({
    code_hash: opaqueTokenHash(code),
    client_id: request.client_id,
    redirect_uri: request.redirect_uri,
    redirect_uri_given: request.redirect_uri_given,
    ...(request.code_challenge === undefined ? {} : { code_challenge: request.code_challenge }),
    user_id: user.user_id,
    entity_id: user.entity_id,
    roles,
    scopes,
    ...(identityScopes.length > 0 ? { identity_scopes: identityScopes } : {}),
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    auth_time: session.auth_time,
    amr: session.amr,
    family_id: signIn,
    expires_at: new Date(Date.now() + CODE_TTL_SECONDS * 1000).toISOString(),
  });
  return { code, ...state };
}
