// Key rotation for a deployed tenant, whose private key lives in a Secrets Manager secret: against a
// table in DynamoDB Local set up as the stack's custom resource leaves it, and moto's server standing in
// for Secrets Manager over real HTTP. The new public key is published before the secret changes, tokens
// of the secret's key verify against the table, and the CLI refuses a target that is not what it says.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SecretsManagerPrivateKeySource } from '../../../shared/auth/secrets-manager-private-key-source';
import { TokenIssuer, TokenVerifier } from '../../../shared/auth/tokens';
import { createDocumentClient } from '../../../shared/data/document-client';
import { SigningKeyRepository } from '../../../shared/data/signing-key-repository';
import { hasMotoServer, type MotoServer, startMotoServer } from '../../../test/support/moto-server';
import { ensureSigningKey, type SecretStore, secretsManagerStore } from '../../custom-resources/signing-key';
import { ensureSigningKey as ensureLocalSigningKey, ensureTable } from '../../local/bootstrap';
import { type KeyStores, listKeys, PUBLISH_LEAD_MS, retireKey, rotateKey } from './keys';
import { UsageError } from './usage-error';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REGION = 'eu-west-1';
const endpoint = inject('dynamodbEndpoint');
const db = createDocumentClient({ region: REGION, endpoint });
const tableName = `school-keys-${randomUUID().slice(0, 8)}`;
const table = new SigningKeyRepository(db, tableName);
const settings = {
  issuer: 'https://api.escola-teste.example/api/sso',
  audience: 'https://api.escola-teste.example/api',
  tenantId: 'escola-teste',
  accessTokenTtlSeconds: 600,
  signingKeyRefreshSeconds: 0,
};

const grant = { subject: 'client-a', clientId: 'client-a', scopes: ['students:read'] };
/** Signs as the deployed token function does, reading the secret for every token. */
const issueFromSecret = () =>
  new TokenIssuer(new SecretsManagerPrivateKeySource(secrets, secretArn), settings).issue(grant);
const verifier = () => new TokenVerifier(table, settings);

let moto: MotoServer;
let tokenBefore: string;
let secrets: SecretsManagerClient;
let secretArn: string;
let secret: SecretStore;

/** The stores the CLI builds for a deployed tenant, on a clock and a wait the test controls. */
function stores(overrides: Partial<KeyStores> = {}): KeyStores & { waited: number[] } {
  const waited: number[] = [];
  return {
    keys: table,
    secret,
    timings: { accessTokenTtlSeconds: 600, signingKeyRefreshSeconds: 60 },
    now: () => new Date(),
    wait: async (ms) => {
      waited.push(ms);
    },
    progress: () => {},
    waited,
    ...overrides,
  };
}

const kidInSecret = async () =>
  (await new SecretsManagerPrivateKeySource(secrets, secretArn).newestPrivateKey())?.kid;

function admin(args: string[], env: Record<string, string>) {
  return spawnSync(`${ROOT}node_modules/.bin/tsx`, ['infra/cli/admin.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: REGION, ...env },
  });
}

describe.skipIf(!hasMotoServer())(
  'a deployed tenant: the private key in Secrets Manager (moto_server)',
  () => {
    beforeAll(async () => {
      moto = await startMotoServer();
      secrets = new SecretsManagerClient({
        region: REGION,
        endpoint: moto.endpoint,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const created = await secrets.send(
        new CreateSecretCommand({ Name: `school-${randomUUID()}`, SecretString: 'placeholder-of-the-stack' }),
      );
      secretArn = created.ARN as string;
      secret = secretsManagerStore(secrets, secretArn);
      await ensureTable(db, tableName, { stream: false });
      await ensureSigningKey(secret, table);
    });
    afterAll(async () => {
      secrets?.destroy();
      await moto?.stop();
    });

    it('rotate publishes the public key, waits, and only then writes the private key to the secret', async () => {
      const before = await kidInSecret();
      tokenBefore = (await issueFromSecret()).token;
      const seenDuringWait: { published: string[]; inSecret: string | undefined }[] = [];
      const rotation = await rotateKey(
        stores({
          wait: async (ms) => {
            expect(ms).toBe(PUBLISH_LEAD_MS);
            seenDuringWait.push({
              published: (await table.publicKeys()).map((k) => k.kid),
              inSecret: await kidInSecret(),
            });
          },
        }),
      );
      expect(seenDuringWait).toEqual([{ published: [rotation.kid, before], inSecret: before }]);
      expect(await kidInSecret()).toBe(rotation.kid);
      expect(rotation.previous).toMatchObject({ kid: before, signing: false });
      expect(await table.newestPrivateKey()).toBeUndefined();
    });

    it("signs with the secret's new key, and tokens of the old key keep verifying", async () => {
      const [newest, older] = await listKeys(stores());
      expect(newest).toMatchObject({ signing: true, newest: true });
      const fresh = (await issueFromSecret()).token;
      expect(decodeProtectedHeader(fresh).kid).toBe(newest?.kid);
      expect(decodeProtectedHeader(tokenBefore).kid).toBe(older?.kid);
      await expect(verifier().verify(fresh)).resolves.toMatchObject({ clientId: 'client-a' });
      await expect(verifier().verify(tokenBefore)).resolves.toMatchObject({ clientId: 'client-a' });
    });

    it('retire refuses the signing key and a recent one without --force, then unpublishes', async () => {
      const [newest, older] = await listKeys(stores());
      const refuse = async (kid: string, force: boolean, message: RegExp) => {
        const refusal = retireKey(stores(), kid, force);
        await expect(refusal).rejects.toBeInstanceOf(UsageError);
        await expect(refusal).rejects.toThrow(message);
      };
      await refuse(newest?.kid as string, true, /the key new tokens are signed with/);
      await refuse(
        older?.kid as string,
        false,
        /SIGNING_KEY_REFRESH_SECONDS=60.*ACCESS_TOKEN_TTL_SECONDS=600/,
      );
      const later = new Date(Date.parse(older?.retirable_at as string));
      await retireKey(stores({ now: () => later }), older?.kid as string, false);
      expect((await table.publicKeys()).map((k) => k.kid)).toEqual([newest?.kid]);
      expect(await kidInSecret()).toBe(newest?.kid);
      await expect(verifier().verify(tokenBefore)).rejects.toThrow(/a key this tenant does not publish/);
      await expect(verifier().verify((await issueFromSecret()).token)).resolves.toBeDefined();
    });

    it('says which key is published but unsigned when writing the secret fails, so the operator rotates again', async () => {
      const signing = await kidInSecret();
      const failing: SecretStore = {
        read: secret.read,
        write: async () => {
          throw new Error('AccessDeniedException');
        },
      };
      const attempt = rotateKey(stores({ secret: failing }));
      await expect(attempt).rejects.toThrow(
        /is published but could not be written to the secret \(AccessDeniedException\); nothing signs with it/,
      );
      expect(await kidInSecret()).toBe(signing);
      const keys = await listKeys(stores());
      expect(keys[0]).toMatchObject({ newest: true, signing: false });
      expect(keys.find((k) => k.kid === signing)).toMatchObject({ signing: true });
    });

    it('the CLI finds the secret through SIGNING_KEY_SECRET_ARN, and refuses a target that is not what it says', () => {
      const listed = admin(['keys', 'list', '--json'], {
        SIGNING_KEY_SECRET_ARN: secretArn,
        SECRETS_MANAGER_ENDPOINT: moto.endpoint,
      });
      expect(listed.status, listed.stderr).toBe(0);
      const keys = JSON.parse(listed.stdout) as { kid: string; signing: boolean }[];
      expect(keys.filter((k) => k.signing).map((k) => k.kid)).toEqual([expect.any(String)]);
      expect(listed.stdout).not.toMatch(/"d"/);

      const withoutSecret = admin(['keys', 'rotate'], {});
      expect(withoutSecret.status).toBe(2);
      expect(withoutSecret.stderr).toMatch(
        /keeps its private key outside the table: set SIGNING_KEY_SECRET_ARN/,
      );
    });

    it('never writes a private key to a table that keeps none, nor a secret for a table that keeps its own', async () => {
      const refusal = rotateKey(stores({ secret: undefined }));
      await expect(refusal).rejects.toThrow(/set SIGNING_KEY_SECRET_ARN/);
      expect(await table.newestPrivateKey()).toBeUndefined();

      const localTable = `school-keys-local-${randomUUID().slice(0, 8)}`;
      await ensureTable(db, localTable, { stream: false });
      await ensureLocalSigningKey(db, localTable);
      const local = new SigningKeyRepository(db, localTable);
      const rotated = await rotateKey(stores({ keys: local, secret: undefined }));
      expect((await local.newestPrivateKey())?.kid).toBe(rotated.kid);
      const signing = await kidInSecret();
      const mixed = rotateKey(stores({ keys: local }));
      await expect(mixed).rejects.toThrow(/keeps its private keys itself.*unset SIGNING_KEY_SECRET_ARN/);
      expect(await kidInSecret()).toBe(signing);
    });
  },
);

afterAll(() => db.destroy());
