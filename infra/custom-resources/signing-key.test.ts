// The deploy-time signing key: generated once, private half only in the secret, public half in the
// table, and tokens signed with the secret's key verify against the published keys. Secrets Manager is
// moto's server over real HTTP, reached by the same client and store the deployed functions use.
import { randomUUID } from 'node:crypto';
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SecretsManagerPrivateKeySource } from '../../shared/auth/secrets-manager-private-key-source';
import { TokenIssuer, TokenVerifier } from '../../shared/auth/tokens';
import { createDocumentClient } from '../../shared/data/document-client';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { hasMotoServer, type MotoServer, startMotoServer } from '../../test/support/moto-server';
import { ensureTable } from '../local/bootstrap';
import { ensureSigningKey, secretsManagerStore } from './signing-key';

const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const tableName = `school-signing-key-${randomUUID().slice(0, 8)}`;
const repository = new SigningKeyRepository(db, tableName);
let moto: MotoServer;
let secrets: SecretsManagerClient;

/** A new secret holding `value`; a stack creates it with a random placeholder until the resource fills it. */
async function newSecret(value = 'placeholder-from-generate-secret-string'): Promise<string> {
  const created = await secrets.send(
    new CreateSecretCommand({ Name: `school-${randomUUID()}`, SecretString: value }),
  );
  return created.ARN as string;
}

const secretValue = async (secretArn: string) =>
  (await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString;

beforeAll(async () => {
  await ensureTable(db, tableName, { stream: false });
  if (!hasMotoServer()) return;
  moto = await startMotoServer();
  secrets = new SecretsManagerClient({
    region: 'eu-west-1',
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  db.destroy();
  secrets?.destroy();
  await moto?.stop();
});

describe.skipIf(!hasMotoServer())('the signing-key custom resource (moto_server)', () => {
  it('replaces the placeholder with a private key and publishes only its public half', async () => {
    const secretArn = await newSecret();
    const kid = await ensureSigningKey(secretsManagerStore(secrets, secretArn), repository);
    const stored = JSON.parse((await secretValue(secretArn)) as string);
    expect(stored).toMatchObject({ kid, jwk: { kty: 'EC', crv: 'P-256', d: expect.any(String) } });
    const published = (await repository.publicKeys()).find((k) => k.kid === kid);
    expect(published?.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: stored.jwk.x, y: stored.jwk.y });
    expect(published?.jwk).not.toHaveProperty('d');
    expect(await repository.newestPrivateKey()).toBeUndefined();
  });

  it('keeps the key it made when a deployment runs it again', async () => {
    const secretArn = await newSecret();
    const secret = secretsManagerStore(secrets, secretArn);
    const first = await ensureSigningKey(secret, repository);
    const value = await secretValue(secretArn);
    expect(await ensureSigningKey(secret, repository)).toBe(first);
    expect(await secretValue(secretArn)).toBe(value);
  });

  it('gives the token function a key whose tokens verify against the published keys', async () => {
    const secretArn = await newSecret();
    await ensureSigningKey(secretsManagerStore(secrets, secretArn), repository);
    const settings = {
      issuer: 'https://api.example.org/api/sso',
      audience: 'https://api.example.org/api',
      tenantId: 'escola-teste',
      accessTokenTtlSeconds: 600,
      signingKeyRefreshSeconds: 300,
    };
    const issuer = new TokenIssuer(new SecretsManagerPrivateKeySource(secrets, secretArn), settings);
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

describe.skipIf(!hasMotoServer())('the Secrets Manager key source (moto_server)', () => {
  it('refuses a secret that holds no private key, without repeating its value', async () => {
    const source = new SecretsManagerPrivateKeySource(secrets, await newSecret('hunter2-placeholder'));
    const refusal = source.newestPrivateKey();
    await expect(refusal).rejects.toThrow(/does not hold JSON/);
    await expect(refusal).rejects.not.toThrow(/hunter2/);
    const half = new SecretsManagerPrivateKeySource(
      secrets,
      await newSecret(
        JSON.stringify({ kid: 'k', created_at: new Date().toISOString(), jwk: { kty: 'EC', crv: 'P-256' } }),
      ),
    );
    await expect(half.newestPrivateKey()).rejects.toThrow(/fields: jwk.d/);
  });
});
