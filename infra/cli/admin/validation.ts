// Checks of what an operator types into the admin CLI: scopes, grant types, redirect URIs, usernames,
// e-mail addresses, ids and passwords. Each returns the value as it is stored or throws a UsageError.
import * as z from 'zod';
import { type GrantType, grantTypes } from '../../../shared/auth/oauth-terms';
import { loginName } from '../../../shared/data/user-repository';
import { isScope, type Scope, scopes } from '../../../shared/domain/groups';
import { UsageError } from './usage-error';

/** Passwords set through the CLI; the demo accounts are seeded apart. */
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;

/** A space- or comma-separated list, each value once, in the order given. */
const words = (value: string) => [...new Set(value.split(/[\s,]+/).filter(Boolean))];

export function parseScopes(value: string): Scope[] {
  const asked = words(value);
  if (asked.length === 0) throw new UsageError('--scopes names no scope.');
  const unknown = asked.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scope ${unknown.join(', ')}; the scopes are: ${scopes.join(' ')}`);
  }
  return asked as Scope[];
}

export function parseGrantTypes(value: string): GrantType[] {
  const asked = words(value);
  if (asked.length === 0) throw new UsageError('--grant-types names no grant type.');
  const unknown = asked.filter((grant) => !(grantTypes as readonly string[]).includes(grant));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown grant type ${unknown.join(', ')}; the grant types are: ${grantTypes.join(' ')}`,
    );
  }
  return asked as GrantType[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect URI for the code flow (RFC 6749 3.1.2, RFC 9700 4.1, RFC 8252 7.3): absolute, https, or
 * http on the loopback interface only; no fragment and no user information. Stored exactly as given,
 * since authorization requests must name it character for character.
 */
export function parseRedirectUri(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`redirect URI ${value} is not an absolute URI.`);
  }
  if (value.includes('#'))
    throw new UsageError(`redirect URI ${value} has a fragment, which RFC 6749 forbids.`);
  if (url.username || url.password) throw new UsageError(`redirect URI ${value} carries user information.`);
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return value;
  throw new UsageError(
    `redirect URI ${value} must use https, or http on the loopback interface (127.0.0.1, [::1], localhost).`,
  );
}

export interface ClientRegistration {
  name: string;
  scopes: Scope[];
  grantTypes: GrantType[];
  redirectUris: string[];
  /** Where logout may send a person afterwards (OpenID Connect RP-Initiated Logout). */
  postLogoutRedirectUris: string[];
  /** A public client (a phone or browser app) has no secret and proves itself with PKCE alone. */
  isPublic: boolean;
}

/** The grants and redirect URIs of a new client, checked against each other. */
export function checkRegistration(registration: ClientRegistration): ClientRegistration {
  const { name, grantTypes: grants, redirectUris, postLogoutRedirectUris, isPublic } = registration;
  if (name.trim() === '' || name.length > 200) throw new UsageError('--name must be 1 to 200 characters.');
  if (isPublic && grants.includes('client_credentials')) {
    throw new UsageError('a public client has no secret, so it cannot use the client_credentials grant.');
  }
  const codeFlow = grants.includes('authorization_code');
  if (codeFlow && redirectUris.length === 0) {
    throw new UsageError('the authorization_code grant needs at least one --redirect-uri.');
  }
  if (!codeFlow && postLogoutRedirectUris.length > 0) {
    throw new UsageError(
      '--post-logout-redirect-uri is for people who sign in by the authorization_code grant, which the client does not have.',
    );
  }
  if (!codeFlow && redirectUris.length > 0) {
    throw new UsageError(
      '--redirect-uri is for the authorization_code grant, which the client does not have.',
    );
  }
  if (grants.includes('refresh_token') && !codeFlow) {
    throw new UsageError(
      'refresh tokens come from the authorization_code grant: add it, or drop refresh_token.',
    );
  }
  return { ...registration, name: name.trim() };
}

/** The grants a client gets when none are named: a service's, or a public app's code flow. */
export const defaultGrantTypes = (isPublic: boolean): GrantType[] =>
  isPublic ? ['authorization_code', 'refresh_token'] : ['client_credentials'];

const USERNAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/** A username as it is stored and signed in with: lower case, 1 to 64 of a-z 0-9 . _ -, no @. */
export function parseUsername(value: string): string {
  const name = loginName(value);
  if (!USERNAME.test(name)) {
    throw new UsageError(
      `username ${JSON.stringify(value)} must be 1 to 64 letters, digits, dots, dashes or underscores, starting and ending with a letter or digit (e-mail addresses go in --email).`,
    );
  }
  return name;
}

export function parseEmail(value: string): string {
  const email = loginName(value);
  if (!z.email().safeParse(email).success) throw new UsageError(`${value} is not an e-mail address.`);
  return email;
}

export function parseUuid(value: string, what: string): string {
  if (!z.uuid().safeParse(value).success) throw new UsageError(`${what} ${value} is not a UUID.`);
  return value.toLowerCase();
}

/** A password read from standard input: its one trailing line break is not part of it. */
export function parsePassword(input: string): string {
  const password = input.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(password)) throw new UsageError('the password must be on one line.');
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(`the password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);
  }
  return password;
}

/** The start of an audit listing: an ISO 8601 time with a zone, as the API's `updated_since` takes. */
export function parseSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (
    !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) ||
    Number.isNaN(at)
  ) {
    throw new UsageError(`--since ${value} is not an ISO 8601 time such as 2026-09-01T00:00:00Z.`);
  }
  return new Date(at).toISOString();
}
