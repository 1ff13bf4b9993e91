// The deploy-time signing key: generated once, private half only in the secret, public half in the
// table, and tokens signed with the secret's key verify against the published keys.
import { randomUUID } from 'node:crypto';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SecretsManagerPrivateKeySource } from '../../shared/auth/secrets-manager-private-key-source';
import { TokenIssuer, TokenVerifier } from '../../shared/auth/tokens';
import { createDocumentClient } from '../../shared/data/document-client';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { ensureTable } from '../local/bootstrap';
import { ensureSigningKey, type SecretStore } from './signing-key';

const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const tableName = `school-signing-key-${randomUUID().slice(0, 8)}`;
const repository = new SigningKeyRepository(db, tableName);

/** A secret as the stack creates it: a random placeholder until the resource fills it. */
function memorySecret(): SecretStore & { value: string | undefined } {
  return {
    value: 'placeholder-from-generate-secret-string',
    read: async function () {
      return this.value;
    },
    write: async function (value) {
      this.value = value;
    },
  };
}

/** The secret, seen through the Secrets Manager client the token function uses. */
const clientOf = (secret: { value: string | undefined }) =>
  ({ send: async () => ({ SecretString: secret.value }) }) as unknown as SecretsManagerClient;

beforeAll(() => ensureTable(db, tableName));
afterAll(() => db.destroy());

describe('the signing-key custom resource', () => {
  it('replaces the placeholder with a private key and publishes only its public half', async () => {
    const secret = memorySecret();
    const kid = await ensureSigningKey(secret, repository);
    const stored = JSON.parse(secret.value as string);
    expect(stored).toMatchObject({ kid, jwk: { kty: 'EC', crv: 'P-256', d: expect.any(String) } });
    const published = (await repository.publicKeys()).find((k) => k.kid === kid);
    expect(published?.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: stored.jwk.x, y: stored.jwk.y });
    expect(published?.jwk).not.toHaveProperty('d');
    expect(await repository.newestPrivateKey()).toBeUndefined();
  });

  it('keeps the key it made when a deployment runs it again', async () => {
    const secret = memorySecret();
    const first = await ensureSigningKey(secret, repository);
    const value = secret.value;
    expect(await ensureSigningKey(secret, repository)).toBe(first);
    expect(secret.value).toBe(value);
  });

  it('gives the token function a key whose tokens verify against the published keys', async () => {
    const secret = memorySecret();
    await ensureSigningKey(secret, repository);
    const settings = {
      issuer: 'https://api.example.org/api/sso',
      audience: 'https://api.example.org/api',
      tenantId: 'escola-teste',
      accessTokenTtlSeconds: 600,
      signingKeyRefreshSeconds: 300,
    };
    const issuer = new TokenIssuer(
      new SecretsManagerPrivateKeySource(clientOf(secret), 'arn:secret'),
      settings,
    );
    const { token } = await issuer.issue({
      subject: 'client-a',
      clientId: 'client-a',
      scopes: ['students:read'],
    });
    const verified = await new TokenVerifier(repository, settings).verify(token);
    expect(verified).toMatchObject({
      clientId: 'client-a',
      tenantId: 'escola-teste',
      scopes: ['students:read'],
    });
  });
});

describe('the Secrets Manager key source', () => {
  it('refuses a secret that holds no private key, without repeating its value', async () => {
    const source = new SecretsManagerPrivateKeySource(
      clientOf({ value: 'hunter2-placeholder' }),
      'arn:secret',
    );
    const refusal = source.newestPrivateKey();
    await expect(refusal).rejects.toThrow(/does not hold JSON/);
    await expect(refusal).rejects.not.toThrow(/hunter2/);
    const half = new SecretsManagerPrivateKeySource(
      clientOf({
        value: JSON.stringify({
          kid: 'k',
          created_at: new Date().toISOString(),
          jwk: { kty: 'EC', crv: 'P-256' },
        }),
      }),
      'arn:secret',
    );
    await expect(half.newestPrivateKey()).rejects.toThrow(/fields: jwk.d/);
  });
});
