// OpenID Connect's scopes and the claims each releases (Core 1.0 section 5.4), for the ID token and
// the userinfo endpoint alike. `sub` is the person's entity id: the same for every client (subject type
// `public`) and stable for as long as the person is on the school's records, even if their sign-in
// account is replaced. `roles` is this service's own claim set: the person's roles (docs/sso.md).
import type { User } from '../data/user-repository';
import type { Entity } from '../schemas/records';
import type { PersonRole } from './roles';

export const identityScopes = ['openid', 'profile', 'email', 'roles'] as const;
export type IdentityScope = (typeof identityScopes)[number];

export const isIdentityScope = (value: string): value is IdentityScope =>
  (identityScopes as readonly string[]).includes(value);

/** Every claim the service can release, as discovery lists them (Discovery 1.0 section 3). */
export const claimsSupported = [
  'iss',
  'sub',
  'aud',
  'azp',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'amr',
  'name',
  'preferred_username',
  'email',
  'email_verified',
  'roles',
] as const;

export type IdentityClaims = {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  /** Addresses are entered by the school's staff, not proven by the person: never claimed verified. */
  email_verified?: boolean;
  roles?: PersonRole[];
};

/** The claims `scopes` release about a person: `sub` always, the rest per scope. */
export function identityClaims(
  scopes: readonly string[],
  person: {
    user: Pick<User, 'username' | 'email' | 'entity_id'>;
    entity: Pick<Entity, 'name' | 'email'> | undefined;
    roles: PersonRole[];
  },
): IdentityClaims {
  const { user, entity, roles } = person;
  const email = user.email ?? entity?.email;
  const name = entity?.name;
  return {
    sub: user.entity_id,
    ...(scopes.includes('profile')
      ? { ...(name === undefined ? {} : { name }), preferred_username: user.username }
      : {}),
    ...(scopes.includes('email') && email ? { email, email_verified: false } : {}),
    ...(scopes.includes('roles') ? { roles } : {}),
  };
}
