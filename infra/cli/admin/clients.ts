// OAuth clients as an administrator manages them: registered with a generated id and secret (the
// secret is returned once and only its scrypt hash is stored), listed without secrets, revoked, and
// given the addresses logout may send their people to.

import { randomBytes, randomUUID } from 'node:crypto';
import type { GrantType } from '../../../shared/auth/oauth-terms';
import { hashSecret } from '../../../shared/auth/secret-hash';
import {
  type ClientRepository,
  grantTypesOf,
  isPublicClient,
  type OAuthClient,
} from '../../../shared/data/client-repository';
import type { Scope } from '../../../shared/domain/groups';
import { UsageError } from './usage-error';
import type { ClientRegistration } from './validation';

/** What `clients list` shows of a client: everything but its secret's hash. */
export interface ClientSummary {
  client_id: string;
  name: string;
  type: 'confidential' | 'public';
  status: OAuthClient['status'];
  scopes: Scope[];
  grant_types: GrantType[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  created_at: string;
}

/** A new client secret: 32 random bytes, base64url, as strong as the tokens it obtains. */
const newSecret = () => randomBytes(32).toString('base64url');

export async function createClient(
  clients: ClientRepository,
  registration: ClientRegistration,
  now = new Date(),
): Promise<{ client: ClientSummary; secret: string | undefined }> {
  const secret = registration.isPublic ? undefined : newSecret();
  const client: OAuthClient = {
    client_id: randomUUID(),
    name: registration.name,
    ...(secret === undefined ? {} : { secret_hash: await hashSecret(secret) }),
    scopes: registration.scopes,
    status: 'active',
    created_at: now.toISOString(),
    grant_types: registration.grantTypes,
    ...(registration.redirectUris.length > 0 ? { redirect_uris: registration.redirectUris } : {}),
    ...(registration.postLogoutRedirectUris.length > 0
      ? { post_logout_redirect_uris: registration.postLogoutRedirectUris }
      : {}),
  };
  await clients.put(client);
  return { client: summarise(client), secret };
}

export async function listClients(clients: ClientRepository): Promise<ClientSummary[]> {
  return (await clients.list()).map(summarise);
}

export async function revokeClient(clients: ClientRepository, clientId: string): Promise<void> {
  if (!(await clients.revoke(clientId))) throw new UsageError(`there is no client ${clientId}.`);
}

/** Replaces where logout may send a client's people afterwards; only a code-flow client has people. */
export async function setLogoutUris(
  clients: ClientRepository,
  clientId: string,
  uris: string[],
): Promise<ClientSummary> {
  const client = await clients.get(clientId);
  if (!client) throw new UsageError(`there is no client ${clientId}.`);
  if (client.status !== 'active') throw new UsageError(`client ${clientId} is revoked.`);
  if (uris.length > 0 && !grantTypesOf(client).includes('authorization_code')) {
    throw new UsageError(`client ${clientId} does not sign people in (no authorization_code grant).`);
  }
  // Only this attribute, and only while the client is active: a revocation meanwhile is never undone.
  const updated = await clients.setPostLogoutRedirectUris(clientId, uris);
  if (!updated) throw new UsageError(`client ${clientId} was revoked meanwhile.`);
  return summarise(updated);
}

function summarise(client: OAuthClient): ClientSummary {
  return {
    client_id: client.client_id,
    name: client.name,
    type: isPublicClient(client) ? 'public' : 'confidential',
    status: client.status,
    scopes: client.scopes,
    grant_types: grantTypesOf(client),
    redirect_uris: client.redirect_uris ?? [],
    post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
    created_at: client.created_at,
  };
}
