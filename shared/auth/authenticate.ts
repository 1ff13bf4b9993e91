// How a route that takes a bearer token authenticates its caller, as its row says: the token verified,
// the route's scope checked, where the route checks the sign-in (`checksSignIn`) a person's token
// refused at once when its sign-in has been revoked, and the profile and schools of its client attached. The
// factories give this to the HTTP kernel.

import { resolveProfile } from '../clients/profiles';
import type { ClientPolicy } from '../data/client-repository';
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import type { Route } from '../route';
import type { AccessToken } from './access-token';
import type { TokenVerifier } from './tokens';

/** The parts authentication takes, each built on first use: a factory gives those its routes need. */
export interface AuthenticationParts {
  /** Routes that take a bearer token only; public and client routes carry no verifier. */
  verifier?: () => TokenVerifier;
  /** Routes that check a person's sign-in only (`checksSignIn`): whether a sign-in has been revoked. */
  signIns?: () => { isRevoked(signIn: string): Promise<boolean> };
  /** The clients' policies, for the profile and schools of the token's client. */
  policies?: () => { of(token: AccessToken): Promise<ClientPolicy | undefined> };
}

/** The route's authentication; none for a route that takes no bearer token (public and client routes). */
export function bearerAuthentication(route: Route, { verifier, signIns, policies }: AuthenticationParts) {
  const { auth } = route;
  if (auth.kind === 'public' || auth.kind === 'client') return undefined;
  if (!verifier) throw new Error(`Route ${route.id} takes a bearer token: give it a verifier`);
  if (route.checksSignIn && !signIns)
    throw new Error(`Route ${route.id} checks sign-ins: give it the sign-in families`);
  return async (token: string | undefined): Promise<AccessToken> => {
    if (token === undefined) throw new UnauthorizedError('This operation needs an access token.', false);
    const verified = await verifier().verify(token);
    if (auth.kind === 'scope' && !verified.scopes.some((s) => s === auth.scope || s === auth.or)) {
      throw new ForbiddenError(auth.scope, auth.or);
    }
    const signIn = route.checksSignIn ? verified.person?.signIn : undefined;
    if (signIn !== undefined && signIns && (await signIns().isRevoked(signIn))) {
      throw new UnauthorizedError('The access token is not valid: its sign-in has been revoked.', true);
    }
    const policy = await policies?.().of(verified);
    const profile = resolveProfile(policy?.profile);
    return {
      ...verified,
      ...(profile ? { profile } : {}),
      ...(policy?.schools ? { schools: policy.schools } : {}),
    };
  };
}
