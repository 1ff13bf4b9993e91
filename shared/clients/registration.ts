// What makes a client's registration sound, whoever registers it (the administration API or the admin
// CLI): redirect URIs a code flow may use, and grants, URIs and secrets that agree with each other. Each
// rule names the field at fault in the API's terms; the CLI says the same in its options' terms.
import type { GrantType } from '../auth/oauth-terms';
import type { FieldProblem } from '../domain/errors';
import type { Scope } from '../domain/groups';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * What is wrong with a redirect URI for the code flow (RFC 6749 3.1.2, RFC 9700 4.1, RFC 8252 7.3), if
 * anything: it must be absolute, https or http on the loopback interface only, with no fragment and no
 * user information. A sound one is stored exactly as given: requests must name it character for character.
 */
export function redirectUriFault(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URI.';
  }
  if (value.includes('#')) return 'has a fragment, which RFC 6749 forbids.';
  if (url.username || url.password) return 'carries user information.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must use https, or http on the loopback interface (127.0.0.1, [::1], localhost).';
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

/** The registration's fields, by the name the administration API gives each. */
export type RegistrationField = 'name' | 'grant_types' | 'redirect_uris' | 'post_logout_redirect_uris';

/** The grants a client gets when none are named: a service's, or a public app's code flow. */
export const defaultGrantTypes = (isPublic: boolean): GrantType[] =>
  isPublic ? ['authorization_code', 'refresh_token'] : ['client_credentials'];

/** Where grants, redirect URIs and the client's type disagree, each named by its field; none when sound. */
export function registrationFaults(
  registration: ClientRegistration,
): { field: RegistrationField; reason: string }[] {
  const { name, grantTypes: grants, redirectUris, postLogoutRedirectUris, isPublic } = registration;
  const faults: { field: RegistrationField; reason: string }[] = [];
  if (name.trim() === '' || name.length > 200)
    faults.push({ field: 'name', reason: 'must be 1 to 200 characters.' });
  if (isPublic && grants.includes('client_credentials')) {
    faults.push({
      field: 'grant_types',
      reason: 'a public client has no secret, so it cannot use the client_credentials grant.',
    });
  }
  const codeFlow = grants.includes('authorization_code');
  if (codeFlow && redirectUris.length === 0) {
    faults.push({ field: 'redirect_uris', reason: 'the authorization_code grant needs at least one.' });
  }
  if (!codeFlow && redirectUris.length > 0) {
    faults.push({
      field: 'redirect_uris',
      reason: 'are for the authorization_code grant, which the client does not have.',
    });
  }
  if (!codeFlow && postLogoutRedirectUris.length > 0) {
    faults.push({
      field: 'post_logout_redirect_uris',
      reason: 'are for people who sign in by the authorization_code grant, which the client does not have.',
    });
  }
  if (grants.includes('refresh_token') && !codeFlow) {
    faults.push({
      field: 'grant_types',
      reason: 'refresh tokens come from the authorization_code grant: add it, or drop refresh_token.',
    });
  }
  return faults;
}

/** The faults as the fields of a refused request. */
export const asFieldProblems = (faults: ReturnType<typeof registrationFaults>): FieldProblem[] =>
  faults.map(({ field, reason }) => ({ name: field, in: 'body', reason }));
