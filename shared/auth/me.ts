// What `GET /api/sso/me` tells about the calling token: its client, scopes and expiry, and for a person's
// token the person it stands for, read fresh from their account and their entity.
import type { Config } from '../config';
import type { RecordRepository } from '../data/record-repository';
import type { UserRepository } from '../data/user-repository';
import { type RoleName, roleNames } from '../domain/groups';
import { UnauthorizedError } from '../http/errors';
import type { OAuthMeResponse } from '../schemas/service';
import type { AccessToken } from './access-token';
import { idsOfRole } from './reach';

export async function me(
  auth: AccessToken,
  { config, users, records }: { config: Config; users: UserRepository; records: RecordRepository },
): Promise<OAuthMeResponse> {
  const token = {
    sub: auth.sub,
    client_id: auth.clientId,
    tenant_id: config.tenantId,
    scopes: auth.scopes,
    exp: auth.expiresAt,
    expires_at: new Date(auth.expiresAt * 1000).toISOString(),
  };
  const { person } = auth;
  if (!person) return token;
  const [user, stored] = await Promise.all([
    users.get(person.userId),
    records.get('entities', person.entityId),
  ]);
  // A token outlives the account it was issued to only by minutes; it no longer stands for anyone.
  if (user?.status !== 'active' || !stored) {
    throw new UnauthorizedError('The access token is not valid: its account is no longer active.', true);
  }
  const entity = stored.record;
  return {
    ...token,
    user_id: user.user_id,
    username: user.username,
    name: entity.name,
    email: user.email ?? entity.email,
    roles: person.roles,
    entity_id: entity.entity_id,
    ...(Object.fromEntries(roleNames.map((role) => [`${role}_ids`, idsOfRole(entity, role)])) as {
      [R in RoleName as `${R}_ids`]: string[];
    }),
  };
}
