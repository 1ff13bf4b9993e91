// Creates ES256 signing key pairs. The key id is the RFC 7638 thumbprint of the public key.
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { StoredKey } from '../data/signing-key-repository';

export const SIGNING_ALGORITHM = 'ES256';

export async function generateSigningKey(
  now = new Date(),
): Promise<{ privateKey: StoredKey; publicKey: StoredKey }> {
  const pair = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const created_at = now.toISOString();
  return {
    privateKey: { kid, created_at, jwk: { ...privateJwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' } },
    publicKey: { kid, created_at, jwk: { ...publicJwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' } },
  };
}
