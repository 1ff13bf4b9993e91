// Verifies access tokens with the published public keys, and refuses those of revoked sign-ins and
// disabled clients: every route that takes a bearer token.
import { RevokedSignIns } from '../auth/revoked-sign-ins';
import { TokenVerifier } from '../auth/tokens';
import { RevocationRepository } from '../data/revocation-repository';
import { SigningKeyRepository } from '../data/signing-key-repository';
import { clientPolicies } from './client-policies';
import { config, once } from './context';
import { documentClient } from './document-client';

export const tokenVerifier = once(() => {
  const { tableName } = config();
  return new TokenVerifier(new SigningKeyRepository(documentClient(), tableName), config(), Date.now, [
    new RevokedSignIns(new RevocationRepository(documentClient(), tableName), config()),
    clientPolicies(),
  ]);
});
