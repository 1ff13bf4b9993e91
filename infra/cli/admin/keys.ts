// Signing-key rotation as an administrator runs it. Rotate publishes a new pair and makes it the one
// new tokens are signed with; the older keys stay published, so their tokens verify until they expire;
// retire unpublishes an older key once nothing it signed can still be in use.
//
// The local run keeps private keys in the table (one transaction publishes both halves). A deployed
// tenant keeps its private key in a Secrets Manager secret: rotate publishes the public key, waits
// until every verifier would find it, and only then writes the private key to the secret, so no token
// is ever signed with a key a verifier could not find.
import { parsePrivateKey } from '../../../shared/auth/secrets-manager-private-key-source';
import { generateSigningKey } from '../../../shared/auth/signing-keys';
import { CLOCK_TOLERANCE_SECONDS, UNKNOWN_KID_REFRESH_MS } from '../../../shared/auth/tokens';
import type { TokenTimings } from '../../../shared/config';
import type { SigningKeyRepository, StoredKey } from '../../../shared/data/signing-key-repository';
import type { SecretStore } from '../../custom-resources/signing-key';
import { PROGRAM } from './commands';
import { UsageError } from './usage-error';

/** How long a deployed rotation waits between publishing a key and signing with it. */
export const PUBLISH_LEAD_MS = UNKNOWN_KID_REFRESH_MS + 1000;

export interface KeyStores {
  keys: SigningKeyRepository;
  /** A deployed tenant's secret (SIGNING_KEY_SECRET_ARN); absent when the table keeps the private keys. */
  secret: SecretStore | undefined;
  timings: TokenTimings;
  now: () => Date;
  wait: (ms: number) => Promise<void>;
  /** Tells the operator what a long step is waiting for. */
  progress: (message: string) => void;
}

export interface KeyStatus {
  kid: string;
  created_at: string;
  /** New tokens are signed with it. */
  signing: boolean;
  newest: boolean;
  /** When a newer key was published; absent for the newest. */
  superseded_at?: string;
  /** From when retiring it cuts off no token that may still be in use; absent for the newest. */
  retirable_at?: string;
}

/**
 * How long after a key is superseded its tokens may still be in use: the deployed rotation's wait, the
 * issuers' refresh period (they keep signing with the old key until they re-read), the tokens' lifetime
 * and the verifiers' clock tolerance.
 */
export const retireDelayMs = ({ accessTokenTtlSeconds, signingKeyRefreshSeconds }: TokenTimings) =>
  PUBLISH_LEAD_MS + (signingKeyRefreshSeconds + accessTokenTtlSeconds + CLOCK_TOLERANCE_SECONDS) * 1000;

export async function listKeys(stores: KeyStores): Promise<KeyStatus[]> {
  const signing = await signingKid(stores);
  const published = await stores.keys.publicKeys();
  const delay = retireDelayMs(stores.timings);
  return published.map((key, i) => {
    const newer = published[i - 1];
    return {
      kid: key.kid,
      created_at: key.created_at,
      signing: key.kid === signing,
      newest: i === 0,
      ...(newer
        ? {
            superseded_at: newer.created_at,
            retirable_at: new Date(Date.parse(newer.created_at) + delay).toISOString(),
          }
        : {}),
    };
  });
}

export interface Rotation {
  kid: string;
  /** The key that signed until now, which `keys retire` may unpublish once its tokens have expired. */
  previous: KeyStatus | undefined;
}

export async function rotateKey(stores: KeyStores): Promise<Rotation> {
  const privateKeys = await privateKeysOf(stores);
  const [newest] = await stores.keys.publicKeys();
  // Keys sort by creation time: the new one must sort first even if this machine's clock is behind.
  const now = stores.now().getTime();
  const createdAt = new Date(newest ? Math.max(now, Date.parse(newest.created_at) + 1) : now);
  const { privateKey, publicKey } = await generateSigningKey(createdAt);
  if (privateKeys.home === 'table') {
    await stores.keys.add(privateKey, publicKey);
  } else {
    await stores.keys.publish(publicKey);
    stores.progress(
      `Published key ${publicKey.kid}; waiting ${PUBLISH_LEAD_MS / 1000} s so that every verifier finds it before tokens are signed with it...`,
    );
    await stores.wait(PUBLISH_LEAD_MS);
    try {
      await privateKeys.secret.write(JSON.stringify(privateKey));
    } catch (error) {
      throw new Error(
        `key ${publicKey.kid} is published but could not be written to the secret (${(error as Error).message}); nothing signs with it: run keys rotate again.`,
        { cause: error },
      );
    }
  }
  const keys = await listKeys(stores);
  return { kid: publicKey.kid, previous: keys.find((key) => key.kid === newest?.kid) };
}

export async function retireKey(stores: KeyStores, kid: string, force: boolean): Promise<KeyStatus> {
  const key = (await listKeys(stores)).find((k) => k.kid === kid);
  if (!key) throw new UsageError(`no published key has the kid ${kid} (${PROGRAM} keys list).`);
  if (key.newest || key.signing || key.retirable_at === undefined) {
    throw new UsageError(
      `${kid} is the key new tokens are signed with; rotate first, then retire it once its tokens have expired.`,
    );
  }
  if (!force && stores.now().getTime() < Date.parse(key.retirable_at)) {
    const { accessTokenTtlSeconds, signingKeyRefreshSeconds } = stores.timings;
    throw new UsageError(
      `${kid} was superseded at ${key.superseded_at}, and tokens it signed may be in use until ${key.retirable_at} (issuers keep signing with it for up to SIGNING_KEY_REFRESH_SECONDS=${signingKeyRefreshSeconds} after a rotation, and tokens live ACCESS_TOKEN_TTL_SECONDS=${accessTokenTtlSeconds}); retiring it now makes them fail with 401: wait, or pass --force.`,
    );
  }
  await stores.keys.retire(key);
  return key;
}

type PrivateKeys = { home: 'table'; newest: StoredKey } | { home: 'secret'; secret: SecretStore };

/**
 * Where the private keys are, after checking the target is what it says: a table that keeps private
 * keys is a local run (no secret), and a deployed tenant's table keeps none (a secret is needed), so a
 * private key is never written to a deployed tenant's table.
 */
async function privateKeysOf(stores: KeyStores): Promise<PrivateKeys> {
  const inTable = await stores.keys.newestPrivateKey();
  if (stores.secret && inTable) {
    throw new UsageError(
      'this table keeps its private keys itself, as a local run does: unset SIGNING_KEY_SECRET_ARN.',
    );
  }
  if (stores.secret) return { home: 'secret', secret: stores.secret };
  if (!inTable) {
    throw new UsageError(
      "this tenant keeps its private key outside the table: set SIGNING_KEY_SECRET_ARN to the stack's SigningKeySecretArn output.",
    );
  }
  return { home: 'table', newest: inTable };
}

async function signingKid(stores: KeyStores): Promise<string | undefined> {
  const privateKeys = await privateKeysOf(stores);
  if (privateKeys.home === 'table') return privateKeys.newest.kid;
  const value = await privateKeys.secret.read();
  return value === undefined ? undefined : heldKid(value);
}

/** The kid of the secret's key; none while it holds the placeholder the stack created it with. */
function heldKid(value: string): string | undefined {
  try {
    return parsePrivateKey(value).kid;
  } catch {
    return undefined;
  }
}
