// The administration API's reads of the tenant's clients, as its handlers serve them: the path's ids
// read, and the clients, secrets or usage answered. Apart from the writes, so that a read's bundle holds no
// schema of a request body.
import type { ClientRepository } from '../data/client-repository';
import { RecordNotFoundError } from '../domain/errors';
import { utcDay } from '../domain/instants';
import { LIMITS } from '../domain/limits';
import type { ApiRequest, ApiResponse } from '../exchange';
import { listClients, listSecrets, readClient } from './client-admin';

/** Longer than any id the service makes or the admin CLI takes: a longer one names no client or secret. */
const MAX_ID_LENGTH = 128;

/** The id a path parameter gives, or a 404 for one no client or secret could have. */
export function pathId(request: ApiRequest, name: 'client_id' | 'secret_id'): string {
  const id = request.path[name] ?? '';
  if (id === '' || id.length > MAX_ID_LENGTH)
    throw new RecordNotFoundError(`There is no ${name} ${id.slice(0, MAX_ID_LENGTH)}.`);
  return id;
}

export async function listClientsRequest(clients: ClientRepository): Promise<ApiResponse> {
  return { body: { clients: await listClients(clients) } };
}

export async function getClientRequest(request: ApiRequest, clients: ClientRepository): Promise<ApiResponse> {
  return { body: await readClient(clients, pathId(request, 'client_id')) };
}

export async function listSecretsRequest(
  request: ApiRequest,
  clients: ClientRepository,
): Promise<ApiResponse> {
  return { body: { secrets: await listSecrets(clients, pathId(request, 'client_id')) } };
}

/** Where a client's daily usage is kept (shared/data/rate-repository.ts). */
export interface UsageSource {
  usage(
    clientId: string,
    fromDay: string,
    toDay: string,
  ): Promise<{ day: string; requests: Record<string, number>; total: number; refused: number }[]>;
}

const DAY_MS = 86_400_000;

/** A client's usage over the last LIMITS.clientUsageDays UTC days, today included. */
export async function getUsageRequest(
  request: ApiRequest,
  clients: ClientRepository,
  usage: UsageSource,
  now = Date.now(),
): Promise<ApiResponse> {
  const clientId = pathId(request, 'client_id');
  const from = utcDay(now - (LIMITS.clientUsageDays - 1) * DAY_MS);
  const to = utcDay(now);
  const [client, days] = await Promise.all([readClient(clients, clientId), usage.usage(clientId, from, to)]);
  return { body: { client_id: clientId, from, to, rate_limit: client.rate_limit, days } };
}
