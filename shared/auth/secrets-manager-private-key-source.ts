// A deployed tenant's private signing key, read from the Secrets Manager secret the deployment filled
// and `npm run admin -- keys rotate` replaces. The token issuer asks once per cold start and again every
// SIGNING_KEY_REFRESH_SECONDS, keeping the imported key in between.
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import type { StoredKey } from '../data/signing-key-repository';
import type { PrivateKeySource } from './tokens';

const nonEmpty = () => z.string().check(z.minLength(1));

const StoredPrivateKey = z.object({
  kid: nonEmpty(),
  created_at: z.iso.datetime(),
  jwk: z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), d: nonEmpty() }),
});

/** Reads the secret's value as a private StoredKey; the message never repeats the value. */
export function parsePrivateKey(secretString: string): StoredKey {
  let value: unknown;
  try {
    value = JSON.parse(secretString);
  } catch {
    throw new Error('The signing key secret does not hold JSON; was the deployment completed?');
  }
  const parsed = StoredPrivateKey.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)');
    throw new Error(`The signing key secret is not a private signing key (fields: ${fields.join(', ')}).`);
  }
  return parsed.data;
}

export class SecretsManagerPrivateKeySource implements PrivateKeySource {
  constructor(
    private readonly client: SecretsManagerClient,
    private readonly secretArn: string,
  ) {}

  async newestPrivateKey(): Promise<StoredKey | undefined> {
    const { SecretString } = await this.client.send(new GetSecretValueCommand({ SecretId: this.secretArn }));
    return SecretString === undefined ? undefined : parsePrivateKey(SecretString);
  }
}
