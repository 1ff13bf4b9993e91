// The administration API's changes to the tenant's clients, as its handlers serve them: the body checked
// against its schema, the path's ids read, and the answer with its status, address and the client its
// audit event names.
import type { ClientRepository } from '../data/client-repository';
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import { ClientRegistrationRequest, ClientReplaceRequest, ClientSecretRequest } from '../schemas/clients';
import { pathId } from './admin-reads';
import type { OrganisationDirectory } from './client-admin';
import { addSecret, disableClient, registerClient, replaceClient, revokeSecret } from './client-admin';

const registrationFields = Object.keys(ClientReplaceRequest.shape);
const audited = (clientId: string) => ({ recordIds: [clientId], entityIds: [] });
const clientAddress = (request: ApiRequest, clientId: string) =>
  `${request.config.publicBaseUrl}/api/admin/clients/${encodeURIComponent(clientId)}`;

export async function createClientRequest(
  request: ApiRequest,
  clients: ClientRepository,
  directory: OrganisationDirectory,
): Promise<ApiResponse> {
  const input = validateBody(ClientRegistrationRequest, request.body, registrationFields);
  const created = await registerClient(clients, directory, input);
  const { client_id: clientId } = created.client;
  return {
    status: 201,
    headers: { location: clientAddress(request, clientId) },
    body: created,
    audit: audited(clientId),
  };
}

export async function replaceClientRequest(
  request: ApiRequest,
  clients: ClientRepository,
  directory: OrganisationDirectory,
): Promise<ApiResponse> {
  const clientId = pathId(request, 'client_id');
  const input = validateBody(ClientReplaceRequest, request.body, registrationFields);
  return { body: await replaceClient(clients, directory, clientId, input), audit: audited(clientId) };
}

export async function deleteClientRequest(
  request: ApiRequest,
  clients: ClientRepository,
): Promise<ApiResponse> {
  const clientId = pathId(request, 'client_id');
  await disableClient(clients, clientId);
  return { status: 204, audit: audited(clientId) };
}

export async function createSecretRequest(
  request: ApiRequest,
  clients: ClientRepository,
): Promise<ApiResponse> {
  const clientId = pathId(request, 'client_id');
  const input = validateBody(ClientSecretRequest, request.body, Object.keys(ClientSecretRequest.shape));
  const created = await addSecret(clients, clientId, input.expires_at);
  return {
    status: 201,
    headers: { location: `${clientAddress(request, clientId)}/secrets/${created.secret_id}` },
    body: created,
    audit: audited(clientId),
  };
}

export async function deleteSecretRequest(
  request: ApiRequest,
  clients: ClientRepository,
): Promise<ApiResponse> {
  const clientId = pathId(request, 'client_id');
  await revokeSecret(clients, clientId, pathId(request, 'secret_id'));
  return { status: 204, audit: audited(clientId) };
}
