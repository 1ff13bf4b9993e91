// What a verified access token says, apart from the issuer and verifier (tokens.ts): the verifier uses the
// revoked sign-ins and the HTTP errors, and both of those (the errors through the audit subject) name a token.
import type { Profile } from '../clients/profiles';
import type { Person } from './person';

/** A verified access token's claims. */
export interface AccessToken {
  sub: string;
  clientId: string;
  tenantId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  jti: string;
  /** Set when a person signed in (the code flow); absent for a client's own token. */
  person?: Person;
  /** The fields its client may read, when the client is registered with a profile (not a claim: its policy's). */
  profile?: Profile;
  /** The schools whose records alone it may read and write, when its client is registered with some (its policy's). */
  schools?: readonly string[];
}
