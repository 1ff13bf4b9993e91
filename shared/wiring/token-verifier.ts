// Verifies access tokens with the published public keys: every route that takes a bearer token.
import { TokenVerifier } from '../auth/tokens';
import { SigningKeyRepository } from '../data/signing-key-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const tokenVerifier = once(
  () => new TokenVerifier(new SigningKeyRepository(documentClient(), config().tableName), config()),
);
