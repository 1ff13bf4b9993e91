// People's sign-in accounts as an administrator manages them: created for a person entity, listed
// without password hashes, disabled and enabled, unlocked after a lockout, given a new password, signed
// out everywhere, and given or relieved of a TOTP second factor.
import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret } from '../../../shared/auth/secret-hash';
import { newTotpSecret, otpauthUri } from '../../../shared/auth/totp';
import type { RecordRepository } from '../../../shared/data/record-repository';
import type { SignInThrottleRepository } from '../../../shared/data/sign-in-throttle-repository';
import { LoginTakenError, type User, type UserRepository } from '../../../shared/data/user-repository';
import { UsageError } from './usage-error';

export interface AccountStores {
  users: UserRepository;
  records: RecordRepository;
  throttles: SignInThrottleRepository;
}

/** What the CLI shows of an account: never its password hash nor its TOTP secret, only whether it has one. */
export type UserSummary = Omit<User, 'password_hash' | 'totp_secret' | 'totp_last_step'> & { totp: boolean };

export interface NewAccount {
  username: string;
  email: string | undefined;
  entityId: string;
  admin: boolean;
}

/** A generated password: 18 random bytes, base64url (24 characters, 144 bits). */
export const generatePassword = () => randomBytes(18).toString('base64url');

export async function createUser(
  { users, records }: AccountStores,
  account: NewAccount,
  password: string,
  now = new Date(),
): Promise<UserSummary> {
  const entity = (await records.get('entities', account.entityId))?.record;
  if (!entity) throw new UsageError(`there is no entity ${account.entityId}.`);
  if (entity.entity_type !== 'person') {
    throw new UsageError(`entity ${account.entityId} is an ${entity.entity_type}; accounts are for people.`);
  }
  if (account.admin && !entity.roles.some((role) => role.role === 'staff')) {
    const kinds = [...new Set(entity.roles.map((role) => role.role))].join(', ') || 'none';
    throw new UsageError(
      `--admin is only for a person with a staff record; entity ${account.entityId} has: ${kinds}.`,
    );
  }
  const at = now.toISOString();
  const user: User = {
    user_id: randomUUID(),
    username: account.username,
    ...(account.email === undefined ? {} : { email: account.email }),
    password_hash: await hashSecret(password),
    status: 'active',
    entity_id: account.entityId,
    admin: account.admin,
    created_at: at,
    updated_at: at,
  };
  try {
    await users.create(user);
  } catch (error) {
    if (error instanceof LoginTakenError) throw new UsageError(error.message);
    throw error;
  }
  return summarise(user);
}

export async function listUsers(users: UserRepository): Promise<UserSummary[]> {
  return (await users.list()).map(summarise).sort((a, b) => a.username.localeCompare(b.username));
}

/** Disables an account, or enables it again (status active), by username or e-mail address. */
export async function setStatus(
  users: UserRepository,
  name: string,
  status: 'active' | 'disabled',
): Promise<UserSummary> {
  const user = await accountNamed(users, name);
  // Disabling also ends the account's sessions and sign-ins, so enabling it later does not revive them.
  const signedOut = status === 'disabled' ? { signed_out_at: new Date().toISOString() } : {};
  return summarise(await users.update(user.user_id, { status, ...signedOut }));
}

/**
 * Ends every sign-on session and refresh-token family of the account: they are no longer honoured from
 * now on. Access tokens already issued live on until they expire (ACCESS_TOKEN_TTL_SECONDS), except at
 * userinfo, which refuses them at once.
 */
export async function signOutUser(users: UserRepository, name: string): Promise<UserSummary> {
  const user = await accountNamed(users, name);
  return summarise(await users.update(user.user_id, { signed_out_at: new Date().toISOString() }));
}

/**
 * Gives the account a new TOTP secret and returns the otpauth:// URI to show once; refused while one is
 * enrolled (reset it first), so a second enrolment never silently replaces a working authenticator.
 */
export async function enrollTotp(
  users: UserRepository,
  name: string,
  issuer: string,
): Promise<{ user: UserSummary; uri: string }> {
  const user = await accountNamed(users, name);
  if (user.totp_secret !== undefined) {
    throw new UsageError(`${user.username} has a TOTP authenticator already: run users totp-reset first.`);
  }
  const secret = newTotpSecret();
  const updated = await users.update(user.user_id, { totp_secret: secret });
  return { user: summarise(updated), uri: otpauthUri(secret, issuer, user.username) };
}

/** Removes the account's TOTP secret (a lost phone); it must be enrolled again where one is required. */
export async function resetTotp(users: UserRepository, name: string): Promise<UserSummary> {
  const user = await accountNamed(users, name);
  return summarise(await users.removeTotp(user.user_id));
}

/** Ends a lockout: the account becomes active and the failed sign-ins against it and its names are forgotten. */
export async function unlockUser({ users, throttles }: AccountStores, name: string): Promise<UserSummary> {
  const user = await accountNamed(users, name);
  await throttles.clearAccount(user.user_id, [user.username, ...(user.email ? [user.email] : [])]);
  return summarise(await users.update(user.user_id, { status: 'active' }));
}

export async function setPassword(
  users: UserRepository,
  name: string,
  password: string,
): Promise<UserSummary> {
  const user = await accountNamed(users, name);
  // A new password ends the sessions the old one opened: their refresh tokens stop working.
  return summarise(
    await users.update(user.user_id, {
      password_hash: await hashSecret(password),
      signed_out_at: new Date().toISOString(),
    }),
  );
}

async function accountNamed(users: UserRepository, name: string): Promise<User> {
  const user = await users.byLogin(name);
  if (!user) throw new UsageError(`there is no account ${name}.`);
  return user;
}

export function summarise({
  password_hash: _hash,
  totp_secret,
  totp_last_step: _step,
  ...user
}: User): UserSummary {
  return { ...user, totp: totp_secret !== undefined };
}
