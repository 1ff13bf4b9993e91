// The tenant's OAuth clients as an administrator manages them, through the administration API or the admin
// CLI alike: registered with a generated id (and a first secret, shown once), read without secrets,
// replaced, disabled, and given further secrets with an optional expiry, listed and revoked one by one.
import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret } from '../auth/secret-hash';
import {
  type ClientRepository,
  type ClientSecret,
  grantTypesOf,
  INITIAL_SECRET_ID,
  isLiveSecret,
  isPublicClient,
  type OAuthClient,
  rateLimitOf,
} from '../data/client-repository';
import {
  type FieldProblem,
  InvalidInputError,
  RecordNotFoundError,
  StateConflictError,
} from '../domain/errors';
import type { RecordGroup } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { recordFields } from '../domain/record-fields';
import { objectFields } from '../oneroster/objects';
import type {
  Client,
  ClientCreated,
  ClientProfile,
  ClientRegistrationRequest,
  ClientReplaceRequest,
  ClientSecretCreated,
  ClientSecretSummary,
} from '../schemas/clients';
import {
  type FieldRule,
  fixedObjectFields,
  fixedRecordFields,
  type OneRosterObjectName,
  type Profile,
} from './profiles';
import { asFieldProblems, defaultGrantTypes, redirectUriFault, registrationFaults } from './registration';

/** A client as an administrator reads it: everything but its secrets. */
export function clientView(client: OAuthClient): Client {
  return {
    client_id: client.client_id,
    name: client.name,
    type: isPublicClient(client) ? 'public' : 'confidential',
    status: client.status,
    scopes: client.scopes,
    grant_types: grantTypesOf(client),
    redirect_uris: client.redirect_uris ?? [],
    post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
    rate_limit: rateLimitOf(client),
    created_at: client.created_at,
    ...(client.updated_at ? { updated_at: client.updated_at } : {}),
    ...(client.disabled_at ? { disabled_at: client.disabled_at } : {}),
    // Stored as it was registered, so as the request's schema took it.
    ...(client.profile === undefined ? {} : { profile: client.profile as ClientProfile }),
    ...(client.schools === undefined ? {} : { schools: client.schools }),
  };
}

/** Which of some entity ids are the tenant's organisations: what a client's `schools` may name. */
export interface OrganisationDirectory {
  organisations(ids: readonly string[]): Promise<ReadonlySet<string>>;
}

/** The schools a registration names, each once, checked to be organisations: a 400 names each that is not. */
async function schoolsOf(
  schools: readonly string[] | undefined,
  directory: OrganisationDirectory,
): Promise<string[] | undefined> {
  if (schools === undefined) return undefined;
  const named = unique(schools);
  const known = await directory.organisations(named);
  const problems = schools.flatMap((id, i): FieldProblem[] =>
    known.has(id)
      ? []
      : [{ name: `schools[${i}]`, in: 'body', reason: 'is not an organisation of this tenant' }],
  );
  if (problems.length > 0) throw new InvalidInputError('The registration is not valid.', problems);
  return named;
}

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** The registration a request asks for, checked whole: every field at fault is named at once. */
function registrationOf(request: ClientRegistrationRequest, isPublic: boolean) {
  const grants = unique(request.grant_types ?? defaultGrantTypes(isPublic));
  const redirectUris = unique(request.redirect_uris ?? []);
  const logoutUris = unique(request.post_logout_redirect_uris ?? []);
  const uriFaults = (field: string, values: string[]) =>
    values.flatMap((uri, i) => {
      const fault = redirectUriFault(uri);
      return fault ? [{ name: `${field}[${i}]`, in: 'body' as const, reason: fault }] : [];
    });
  const problems: FieldProblem[] = [
    ...uriFaults('redirect_uris', redirectUris),
    ...uriFaults('post_logout_redirect_uris', logoutUris),
    ...asFieldProblems(
      registrationFaults({
        name: request.name,
        scopes: request.scopes,
        grantTypes: grants,
        redirectUris,
        postLogoutRedirectUris: logoutUris,
        isPublic,
      }),
    ),
  ];
  problems.push(...profileFaults(request.profile));
  if (problems.length > 0) throw new InvalidInputError('The registration is not valid.', problems);
  return {
    name: request.name.trim(),
    scopes: unique(request.scopes),
    grant_types: grants,
    redirect_uris: redirectUris.length > 0 ? redirectUris : undefined,
    post_logout_redirect_uris: logoutUris.length > 0 ? logoutUris : undefined,
    rate_limit: request.rate_limit,
    profile: request.profile,
  };
}

/** The registration a request asks for, its schools checked against the tenant's organisations. */
async function checkedRegistration(
  request: ClientRegistrationRequest,
  isPublic: boolean,
  directory: OrganisationDirectory,
) {
  const registration = registrationOf(request, isPublic);
  return { ...registration, schools: await schoolsOf(request.schools, directory) };
}

/**
 * Where a profile of the client's own names what is not there: a field its group or object does not
 * have, or one that is always read (an id, a time, what the OneRoster binding requires).
 */
export function profileFaults(profile: ClientRegistrationRequest['profile'] | Profile): FieldProblem[] {
  if (profile === undefined || typeof profile === 'string') return [];
  const faults = (
    where: string,
    rule: FieldRule | undefined,
    known: readonly string[],
    fixed: readonly string[],
  ): FieldProblem[] => {
    if (!rule) return [];
    const listed = 'include' in rule ? rule.include : rule.exclude;
    return listed.flatMap((field, i): FieldProblem[] => {
      const name = `profile.${where}.${'include' in rule ? 'include' : 'exclude'}[${i}]`;
      if (!known.includes(field)) {
        return [{ name, in: 'body', reason: `is not a field: the fields are ${known.join(', ')}` }];
      }
      if ('exclude' in rule && fixed.includes(field)) {
        return [
          {
            name,
            in: 'body',
            reason: 'is always read: it identifies the record, or the binding requires it',
          },
        ];
      }
      return [];
    });
  };
  return [
    ...Object.entries<FieldRule | undefined>(profile.records ?? {}).flatMap(([group, rule]) =>
      faults(
        `records.${group}`,
        rule,
        recordFields[group as RecordGroup],
        fixedRecordFields(group as RecordGroup),
      ),
    ),
    ...Object.entries<FieldRule | undefined>(profile.oneroster ?? {}).flatMap(([object, rule]) =>
      faults(
        `oneroster.${object}`,
        rule,
        objectFields[object as OneRosterObjectName],
        fixedObjectFields[object as OneRosterObjectName],
      ),
    ),
  ];
}

/** A secret's id: random, and short enough to read out; the secret itself starts with it. */
const newSecretId = () => randomBytes(9).toString('base64url');

/**
 * A new secret, `<secret_id>.<32 random bytes, base64url>`: as strong as the tokens it obtains, and
 * naming the one hash it is checked against.
 */
async function newSecret(clientId: string, now: Date, expiresAt?: string) {
  const secretId = newSecretId();
  const secret = `${secretId}.${randomBytes(32).toString('base64url')}`;
  const item: ClientSecret = {
    client_id: clientId,
    secret_id: secretId,
    secret_hash: await hashSecret(secret),
    created_at: now.toISOString(),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  };
  return { item, secret };
}

function secretSummary(
  secret: Omit<ClientSecret, 'secret_hash' | 'client_id'>,
  now: Date,
): ClientSecretSummary {
  return {
    secret_id: secret.secret_id,
    created_at: secret.created_at,
    ...(secret.expires_at ? { expires_at: secret.expires_at } : {}),
    ...(secret.last_used_at ? { last_used_at: secret.last_used_at } : {}),
    status: isLiveSecret(secret, now) ? 'live' : 'expired',
  };
}

export async function registerClient(
  clients: ClientRepository,
  directory: OrganisationDirectory,
  request: ClientRegistrationRequest,
  now = new Date(),
): Promise<ClientCreated> {
  const isPublic = request.type === 'public';
  const registration = await checkedRegistration(request, isPublic, directory);
  const clientId = randomUUID();
  const client: OAuthClient = {
    client_id: clientId,
    type: isPublic ? 'public' : 'confidential',
    status: 'active',
    created_at: now.toISOString(),
    ...Object.fromEntries(Object.entries(registration).filter(([, value]) => value !== undefined)),
  } as OAuthClient;
  const secret = isPublic ? undefined : await newSecret(clientId, now);
  await clients.create(client, secret?.item);
  return {
    client: clientView(client),
    ...(secret ? { secret: { ...secretSummary(secret.item, now), secret: secret.secret } } : {}),
  };
}

export async function listClients(clients: ClientRepository): Promise<Client[]> {
  return (await clients.list()).map(clientView);
}

async function existing(clients: ClientRepository, clientId: string): Promise<OAuthClient> {
  const client = await clients.get(clientId);
  if (!client) throw new RecordNotFoundError(`There is no client ${clientId}.`);
  return client;
}

export async function readClient(clients: ClientRepository, clientId: string): Promise<Client> {
  return clientView(await existing(clients, clientId));
}

/**
 * Replaces a client's registration whole (fields left out go back to their defaults) and, where the
 * request says, its status: `revoked` disables it as a delete does, `active` enables it again (tokens from
 * before it was disabled stay refused). Its type and secrets stay as they are.
 */
export async function replaceClient(
  clients: ClientRepository,
  directory: OrganisationDirectory,
  clientId: string,
  request: ClientReplaceRequest,
  now = new Date(),
): Promise<Client> {
  const current = await existing(clients, clientId);
  const type = isPublicClient(current) ? 'public' : 'confidential';
  if (request.type !== undefined && request.type !== type) {
    throw new StateConflictError(
      `The client is ${type}: a client's type cannot change; register a new one.`,
      [{ name: 'type', in: 'body', reason: `must be ${type}` }],
    );
  }
  const registration = await checkedRegistration(request, type === 'public', directory);
  const status = request.status ?? current.status;
  const replaced = await clients.replace(
    clientId,
    registration,
    status,
    now.toISOString(),
    current.status === 'active' && status === 'revoked',
  );
  if (!replaced) throw new RecordNotFoundError(`There is no client ${clientId}.`);
  return clientView(replaced);
}

/**
 * Disables a client: it gets no more tokens, and every route refuses those it holds within a minute
 * (shared/auth/client-policies.ts). Disabling a disabled client changes nothing.
 */
export async function disableClient(clients: ClientRepository, clientId: string, now = new Date()) {
  if (await clients.revoke(clientId, now.toISOString())) return;
  await existing(clients, clientId);
}

/** A client's secrets, the initial one of an older client included; never a secret or its hash. */
export async function listSecrets(
  clients: ClientRepository,
  clientId: string,
  now = new Date(),
): Promise<ClientSecretSummary[]> {
  const [client, secrets] = await Promise.all([existing(clients, clientId), clients.secrets(clientId)]);
  return [
    ...(client.secret_hash ? [{ secret_id: INITIAL_SECRET_ID, created_at: client.created_at }] : []),
    ...secrets,
  ].map((secret) => secretSummary(secret, now));
}

/**
 * Gives a confidential, active client another secret, shown in the answer only. A client holds at most
 * LIMITS.liveClientSecrets live ones: enough to rotate without downtime (add the new one, move the vendor
 * to it, revoke the old one); an expired one no longer counts.
 */
export async function addSecret(
  clients: ClientRepository,
  clientId: string,
  expiresAt: string | undefined,
  now = new Date(),
): Promise<ClientSecretCreated> {
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime()) {
    throw new InvalidInputError('The secret would never be valid.', [
      { name: 'expires_at', in: 'body', reason: 'must be in the future' },
    ]);
  }
  const [client, secrets] = await Promise.all([existing(clients, clientId), clients.secrets(clientId)]);
  if (isPublicClient(client)) {
    throw new StateConflictError('A public client proves itself with PKCE alone: it has no secrets.');
  }
  if (client.status !== 'active') throw new StateConflictError('The client is disabled: enable it first.');
  const live = secrets.filter((secret) => isLiveSecret(secret, now)).length + (client.secret_hash ? 1 : 0);
  if (live >= LIMITS.liveClientSecrets) {
    throw new StateConflictError(
      `The client already has ${live} live secrets, the most it may hold: revoke one first.`,
    );
  }
  const secret = await newSecret(clientId, now, expiresAt && new Date(expiresAt).toISOString());
  if (!(await clients.addSecret(secret.item, client.secrets_version))) {
    throw new StateConflictError(
      "The client's secrets or status changed while this one was being added: read them and try again.",
    );
  }
  return { ...secretSummary(secret.item, now), secret: secret.secret };
}

/** Revokes one secret at once: the token endpoint refuses it from the next request. */
export async function revokeSecret(clients: ClientRepository, clientId: string, secretId: string) {
  if (!(await clients.removeSecret(clientId, secretId))) {
    throw new RecordNotFoundError(`Client ${clientId} has no secret ${secretId}.`);
  }
}
