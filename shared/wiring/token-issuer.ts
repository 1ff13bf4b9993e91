// Signs access tokens: the token endpoint only, the one function that may read the private key. A deployed
// tenant keeps that key in Secrets Manager; the local run keeps it in the table.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerPrivateKeySource } from '../auth/secrets-manager-private-key-source';
import { type PrivateKeySource, TokenIssuer } from '../auth/tokens';
import { SigningKeyRepository } from '../data/signing-key-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

function privateKeySource(): PrivateKeySource {
  const { region, signingKeySecretArn, tableName } = config();
  if (!signingKeySecretArn) return new SigningKeyRepository(documentClient(), tableName);
  return new SecretsManagerPrivateKeySource(new SecretsManagerClient({ region }), signingKeySecretArn);
}

export const tokenIssuer = once(() => new TokenIssuer(privateKeySource(), config()));
