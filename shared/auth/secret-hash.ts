// Client secrets are kept only as salted scrypt hashes, compared in constant time. The cost
// parameters travel inside each hash, so they can be raised later without breaking stored ones.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(secret: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, COST.N, COST.r, COST.p);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A hash of nothing anyone knows: unknown clients are checked against it so they cost the same time. */
const DECOY = `scrypt$${COST.N}$${COST.r}$${COST.p}$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;

export async function verifySecret(secret: string, stored: string | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = (stored ?? DECOY).split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !expected) return false;
  const key = await derive(secret, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  const wanted = Buffer.from(expected, 'base64');
  return wanted.length === key.length && timingSafeEqual(key, wanted) && stored !== undefined;
}
