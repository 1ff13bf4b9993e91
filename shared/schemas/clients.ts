// What the administration API takes and gives about the tenant's OAuth clients: a registration, a client
// as an administrator reads it (never a secret's hash), a secret as it is made (the one time it is shown)
// and listed, and a client's usage. Written with zod/mini: the admin handlers parse bodies with these.
import * as z from 'zod/mini';
import { grantTypes } from '../auth/oauth-terms';
import { oneRosterObjects, readyProfileNames } from '../clients/profiles';
import { recordGroups, scopes } from '../domain/groups';
import { LIMITS } from '../domain/limits';

const uris = z.optional(
  z
    .array(z.string().check(z.maxLength(2_000, 'at most 2000 characters')))
    .check(z.maxLength(LIMITS.clientRedirectUris, `at most ${LIMITS.clientRedirectUris} URIs`)),
);

const fieldNames = z
  .array(z.string().check(z.maxLength(100, 'at most 100 characters')))
  .check(z.maxLength(100, 'at most 100 fields'));
const FieldRule = z.union([z.strictObject({ include: fieldNames }), z.strictObject({ exclude: fieldNames })]);

/** A profile of the client's own, or a ready one's name (shared/clients/profiles.ts). */
export const ClientProfile = z.union([
  z.enum(readyProfileNames, `must be ${readyProfileNames.join(' or ')}, or a profile object`),
  z.strictObject({
    records: z.optional(z.partialRecord(z.enum(recordGroups), FieldRule)),
    oneroster: z.optional(z.partialRecord(z.enum(oneRosterObjects), FieldRule)),
  }),
]);
export type ClientProfile = z.infer<typeof ClientProfile>;

const registrationFields = {
  name: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'at most 200 characters')),
  scopes: z
    .array(z.enum(scopes, 'must be a scope the service defines'))
    .check(z.minLength(1, 'must name at least one scope')),
  grant_types: z.optional(
    z
      .array(z.enum(grantTypes, `must be one of ${grantTypes.join(', ')}`))
      .check(z.minLength(1, 'must name at least one grant type')),
  ),
  redirect_uris: uris,
  post_logout_redirect_uris: uris,
  profile: z.optional(ClientProfile),
  schools: z.optional(
    z
      .array(z.uuid('must be the id (a UUID) of an organisation'))
      .check(
        z.minLength(1, 'must name at least one school; leave it out to read every school'),
        z.maxLength(LIMITS.clientSchools, `at most ${LIMITS.clientSchools} schools`),
      ),
  ),
  rate_limit: z.optional(
    z
      .int()
      .check(
        z.minimum(1, 'must be at least 1'),
        z.maximum(LIMITS.maxClientRequestsPerMinute, `at most ${LIMITS.maxClientRequestsPerMinute}`),
      ),
  ),
};

const clientTypes = ['confidential', 'public'] as const;
const clientStatuses = ['active', 'revoked'] as const;

export const ClientRegistrationRequest = z.strictObject({
  ...registrationFields,
  type: z.optional(z.enum(clientTypes, 'must be confidential or public')),
});
export type ClientRegistrationRequest = z.infer<typeof ClientRegistrationRequest>;

export const ClientReplaceRequest = z.strictObject({
  ...registrationFields,
  type: z.optional(z.enum(clientTypes, 'must be confidential or public')),
  status: z.optional(z.enum(clientStatuses, 'must be active or revoked')),
});
export type ClientReplaceRequest = z.infer<typeof ClientReplaceRequest>;

export const Client = z.strictObject({
  client_id: z.string(),
  name: z.string(),
  type: z.enum(clientTypes),
  status: z.enum(clientStatuses),
  scopes: z.array(z.string()),
  grant_types: z.array(z.enum(grantTypes)),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  rate_limit: z.int(),
  profile: z.optional(ClientProfile),
  schools: z.optional(z.array(z.string())),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
  disabled_at: z.optional(z.iso.datetime()),
});
export type Client = z.infer<typeof Client>;

export const ClientsList = z.strictObject({ clients: z.array(Client) });

export const ClientSecretRequest = z.strictObject({
  expires_at: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with a zone' })),
});
export type ClientSecretRequest = z.infer<typeof ClientSecretRequest>;

export const ClientSecretSummary = z.strictObject({
  secret_id: z.string(),
  created_at: z.iso.datetime(),
  expires_at: z.optional(z.iso.datetime()),
  last_used_at: z.optional(z.iso.datetime()),
  status: z.enum(['live', 'expired']),
});
export type ClientSecretSummary = z.infer<typeof ClientSecretSummary>;

export const ClientSecretCreated = z.strictObject({
  ...ClientSecretSummary.shape,
  secret: z.string(),
});
export type ClientSecretCreated = z.infer<typeof ClientSecretCreated>;

export const ClientSecretsList = z.strictObject({ secrets: z.array(ClientSecretSummary) });

export const ClientCreated = z.strictObject({
  client: Client,
  secret: z.optional(ClientSecretCreated),
});
export type ClientCreated = z.infer<typeof ClientCreated>;

export const ClientUsageDay = z.strictObject({
  day: z.iso.date(),
  requests: z.record(z.string(), z.int()),
  total: z.int(),
  refused: z.int(),
});

export const ClientUsage = z.strictObject({
  client_id: z.string(),
  from: z.iso.date(),
  to: z.iso.date(),
  rate_limit: z.int(),
  days: z.array(ClientUsageDay),
});
export type ClientUsage = z.infer<typeof ClientUsage>;
