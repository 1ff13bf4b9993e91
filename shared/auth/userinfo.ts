// The userinfo endpoint (OpenID Connect Core 1.0 section 5.3): the claims about the signed-in person that
// the access token's identity scopes release, read fresh from their account and entity. A token without
// openid, or a client's own token, is refused with insufficient_scope; a token whose account is no longer
// active, or has signed out everywhere since the token was issued, with invalid_token (RFC 6750 section 3).
import type { RecordRepository } from '../data/record-repository';
import type { UserRepository } from '../data/user-repository';
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import type { AccessToken } from './access-token';
import { type IdentityClaims, identityClaims } from './identity-claims';

export async function userinfo(
  auth: AccessToken,
  { users, records }: { users: UserRepository; records: RecordRepository },
): Promise<IdentityClaims> {
  const { person } = auth;
  if (!person || !auth.scopes.includes('openid')) throw new ForbiddenError('openid');
  const [user, entity] = await Promise.all([
    users.get(person.userId),
    records.get('entities', person.entityId),
  ]);
  // iat has whole seconds: a token of the sign-out's own second may come after it, and is honoured, as
  // a session or sign-in that starts at the sign-out's instant is.
  const signedOut =
    user?.signed_out_at !== undefined && auth.issuedAt < Math.floor(Date.parse(user.signed_out_at) / 1000);
  if (user?.status !== 'active' || signedOut) {
    throw new UnauthorizedError(
      'The access token is not valid: its account has signed out or is no longer active.',
      true,
    );
  }
  return identityClaims(auth.scopes, { user, entity: entity?.record, roles: person.roles });
}
