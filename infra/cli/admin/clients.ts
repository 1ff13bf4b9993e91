// OAuth clients as an administrator manages them from the command line: the same operations as the
// administration API (shared/clients/client-admin.ts), their refusals said as the CLI's usage errors.

import {
  clientView,
  disableClient,
  listClients as listAll,
  type OrganisationDirectory,
  registerClient,
} from '../../../shared/clients/client-admin';
import type { ReadyProfileName } from '../../../shared/clients/profiles';
import type { ClientRegistration } from '../../../shared/clients/registration';
import { type ClientRepository, grantTypesOf } from '../../../shared/data/client-repository';
import { DomainError } from '../../../shared/domain/errors';
import type { Client } from '../../../shared/schemas/clients';
import { UsageError } from './usage-error';

/** A refusal of the shared operations, as one line for the operator. */
async function asUsage<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const fields = (error.problems ?? []).map((p) => `${p.name} ${p.reason}`).join('; ');
    throw new UsageError(fields ? `${error.message} ${fields}` : error.message);
  }
}

export async function createClient(
  clients: ClientRepository,
  directory: OrganisationDirectory,
  registration: ClientRegistration,
  governance: { rateLimit?: number; profile?: ReadyProfileName; schools?: string[] } = {},
  now = new Date(),
): Promise<{ client: Client; secret: string | undefined }> {
  const created = await asUsage(
    registerClient(
      clients,
      directory,
      {
        name: registration.name,
        type: registration.isPublic ? 'public' : 'confidential',
        scopes: registration.scopes,
        grant_types: registration.grantTypes,
        redirect_uris: registration.redirectUris,
        post_logout_redirect_uris: registration.postLogoutRedirectUris,
        ...(governance.rateLimit === undefined ? {} : { rate_limit: governance.rateLimit }),
        ...(governance.profile === undefined ? {} : { profile: governance.profile }),
        ...(governance.schools === undefined ? {} : { schools: governance.schools }),
      },
      now,
    ),
  );
  return { client: created.client, secret: created.secret?.secret };
}

export const listClients = (clients: ClientRepository): Promise<Client[]> => listAll(clients);

export async function revokeClient(clients: ClientRepository, clientId: string): Promise<void> {
  await asUsage(disableClient(clients, clientId));
}

/** Replaces where logout may send a client's people afterwards; only a code-flow client has people. */
export async function setLogoutUris(
  clients: ClientRepository,
  clientId: string,
  uris: string[],
): Promise<Client> {
  const client = await clients.get(clientId);
  if (!client) throw new UsageError(`there is no client ${clientId}.`);
  if (client.status !== 'active') throw new UsageError(`client ${clientId} is revoked.`);
  if (uris.length > 0 && !grantTypesOf(client).includes('authorization_code')) {
    throw new UsageError(`client ${clientId} does not sign people in (no authorization_code grant).`);
  }
  // Only this attribute, and only while the client is active: a revocation meanwhile is never undone.
  const updated = await clients.setPostLogoutRedirectUris(clientId, uris);
  if (!updated) throw new UsageError(`client ${clientId} was revoked meanwhile.`);
  return clientView(updated);
}
