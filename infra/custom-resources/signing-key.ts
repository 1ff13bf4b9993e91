// The CloudFormation custom resource that gives a deployed tenant its signing key: generated inside
// the tenant's account at deploy time, the private half written to the tenant's secret, the public
// half published in the table. The key is never in the template, and this function never logs it.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import * as z from 'zod';
import { parsePrivateKey } from '../../shared/auth/secrets-manager-private-key-source';
import { generateSigningKey } from '../../shared/auth/signing-keys';
import { createDocumentClient } from '../../shared/data/document-client';
import { SigningKeyRepository, type StoredKey } from '../../shared/data/signing-key-repository';

/** The tenant's secret, as this resource reads and writes it. */
export interface SecretStore {
  read(): Promise<string | undefined>;
  write(value: string): Promise<void>;
}

/**
 * Makes sure the secret holds a private key and its public half is published. A secret that already
 * holds one keeps it, so a retried or repeated deployment never replaces a key tokens were signed with.
 */
export async function ensureSigningKey(secret: SecretStore, keys: SigningKeyRepository): Promise<string> {
  const stored = await secret.read();
  let privateKey = stored === undefined ? undefined : heldKey(stored);
  if (!privateKey) {
    privateKey = (await generateSigningKey()).privateKey;
    await secret.write(JSON.stringify(privateKey));
  }
  await keys.publish(publicHalf(privateKey));
  return privateKey.kid;
}

/** The secret's key, or nothing when it still holds the placeholder the secret was created with. */
function heldKey(value: string): StoredKey | undefined {
  try {
    return parsePrivateKey(value);
  } catch {
    return undefined;
  }
}

function publicHalf(privateKey: StoredKey): StoredKey {
  const { d: _private, ...jwk } = privateKey.jwk;
  return { ...privateKey, jwk };
}

const Properties = z.object({
  SecretArn: z.string().startsWith('arn:'),
  TableName: z.string().min(3),
});

/** The tenant's secret through Secrets Manager; the admin CLI's `keys rotate` writes it the same way. */
export function secretsManagerStore(client: SecretsManagerClient, secretArn: string): SecretStore {
  return {
    read: async () => (await client.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString,
    write: async (value) => {
      await client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString: value }));
    },
  };
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const region = process.env.AWS_REGION ?? 'eu-west-1';
  const response: CloudFormationCustomResourceResponse = {
    Status: 'SUCCESS',
    PhysicalResourceId: event.RequestType === 'Create' ? event.LogicalResourceId : event.PhysicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
  try {
    // Deleting the resource leaves the key: the secret and the table follow their own removal policies.
    if (event.RequestType !== 'Delete') {
      const { SecretArn, TableName } = Properties.parse(event.ResourceProperties);
      const db = createDocumentClient({ region });
      const kid = await ensureSigningKey(
        secretsManagerStore(new SecretsManagerClient({ region }), SecretArn),
        new SigningKeyRepository(db, TableName),
      );
      response.Data = { Kid: kid };
      console.log(JSON.stringify({ level: 'info', message: 'signing key ready', kid }));
    }
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    Object.assign(response, { Status: 'FAILED', Reason: reason });
    console.log(JSON.stringify({ level: 'error', message: 'signing key failed', reason }));
  }
  // CloudFormation waits on this pre-signed URL; its signature covers no content type, so send none.
  const sent = await fetch(event.ResponseURL, {
    method: 'PUT',
    headers: { 'content-type': '' },
    body: JSON.stringify(response),
  });
  if (!sent.ok) throw new Error(`CloudFormation refused the response: ${sent.status}`);
}
