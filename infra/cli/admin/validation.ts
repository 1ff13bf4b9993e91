// Checks of what an operator types into the admin CLI: scopes, grant types, redirect URIs, usernames,
// e-mail addresses, ids and passwords. Each returns the value as it is stored or throws a UsageError.
import * as z from 'zod';
import { type GrantType, grantTypes } from '../../../shared/auth/oauth-terms';
import { type ReadyProfileName, readyProfileNames } from '../../../shared/clients/profiles';
import {
  type ClientRegistration,
  type RegistrationField,
  redirectUriFault,
  registrationFaults,
} from '../../../shared/clients/registration';
import { loginName } from '../../../shared/data/user-repository';
import { isScope, type Scope, scopes } from '../../../shared/domain/groups';
import { LIMITS } from '../../../shared/domain/limits';
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

/** A redirect URI for the code flow, as shared/clients/registration.ts rules; stored exactly as given. */
export function parseRedirectUri(value: string): string {
  const fault = redirectUriFault(value);
  if (fault) throw new UsageError(`redirect URI ${value} ${fault}`);
  return value;
}

/** The option each field of a registration is given by. */
const optionOf: Record<RegistrationField, string> = {
  name: '--name',
  grant_types: '--grant-types',
  redirect_uris: '--redirect-uri',
  post_logout_redirect_uris: '--post-logout-redirect-uri',
};

/** The grants and redirect URIs of a new client, checked against each other. */
export function checkRegistration(registration: ClientRegistration): ClientRegistration {
  const [fault] = registrationFaults(registration);
  if (fault) throw new UsageError(`${optionOf[fault.field]}: ${fault.reason}`);
  return { ...registration, name: registration.name.trim() };
}

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

/** A rate limit in requests a minute, within what a client may be given. */
export function parseRateLimit(value: string): number {
  const limit = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || limit > LIMITS.maxClientRequestsPerMinute) {
    throw new UsageError(
      `--rate-limit ${value} is not a whole number of requests a minute from 1 to ${LIMITS.maxClientRequestsPerMinute}.`,
    );
  }
  return limit;
}

/** A ready profile's name; a profile of the client's own is registered through the administration API. */
export function parseProfileName(value: string): ReadyProfileName {
  if (!(readyProfileNames as readonly string[]).includes(value)) {
    throw new UsageError(
      `--profile ${value} is not a ready profile (${readyProfileNames.join(', ')}); register a profile of the client's own through the administration API.`,
    );
  }
  return value as ReadyProfileName;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--schools "<id> <id>"`: organisation ids, each a UUID (that each is an organisation is checked on create). */
export function parseSchools(value: string): string[] {
  const ids = value.split(/[\s,]+/).filter((id) => id !== '');
  if (ids.length === 0) throw new UsageError('--schools names no school; leave it out to read every school.');
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw new UsageError(`--schools ${bad} is not an organisation id (a UUID).`);
  return ids;
}
