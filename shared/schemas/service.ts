// Shapes of the non-record requests and responses: tenant status, the OAuth endpoints, problems and
// the API description itself.
import * as z from 'zod';
import { personRoles } from '../auth/roles';
import { SIGNING_ALGORITHM } from '../auth/signing-keys';
import { type RecordGroup, type RoleName, recordGroups, roleNames } from '../domain/groups';

export const SystemStatus = z.strictObject({
  tenant_id: z.string(),
  tenant_name: z.string(),
  service: z.string(),
  version: z.string(),
  status: z.literal('ok'),
  server_time: z.iso.datetime(),
  counts: z.strictObject(
    Object.fromEntries(recordGroups.map((group) => [group, z.int().min(0)])) as Record<RecordGroup, z.ZodInt>,
  ),
});
export type SystemStatus = z.infer<typeof SystemStatus>;

export const OAuthTokenResponse = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int().positive(),
  scope: z.string(),
  refresh_token: z
    .string()
    .meta({ description: "A person's sign-in only; single use: each refresh answers a new one." })
    .optional(),
  id_token: z
    .string()
    .meta({ description: 'OpenID Connect ID token (ES256), when the sign-in was granted the openid scope.' })
    .optional(),
});
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponse>;

export const oauthErrorCodes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'unsupported_token_type',
] as const;

export const OAuthErrorResponse = z.strictObject({
  error: z.enum(oauthErrorCodes),
  error_description: z.string(),
});
export type OAuthErrorResponse = z.infer<typeof OAuthErrorResponse>;

/** Set only for a person's token. */
const ofPerson = <T extends z.ZodType>(schema: T, description: string) =>
  schema.optional().meta({ description: `${description} (a person's token only)` });

/** The ids of a person's records of each role: `student_ids`, `teacher_ids` and so on. */
const roleIdFields = Object.fromEntries(
  roleNames.map((role) => [`${role}_ids`, ofPerson(z.array(z.uuid()), `The person's ${role} records`)]),
) as { [R in RoleName as `${R}_ids`]: z.ZodOptional<z.ZodArray<z.ZodUUID>> };

export const UserInfoResponse = z.strictObject({
  sub: z.string().meta({
    description: "The person's entity id: the same for every app, stable while they are on record.",
  }),
  name: z.string().optional(),
  preferred_username: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  roles: z.array(z.enum(personRoles)).optional(),
});
export type UserInfoResponse = z.infer<typeof UserInfoResponse>;

export const OAuthMeResponse = z.strictObject({
  sub: z.string(),
  client_id: z.string(),
  tenant_id: z.string(),
  scopes: z.array(z.string()),
  exp: z.int(),
  expires_at: z.iso.datetime(),
  user_id: ofPerson(z.string(), 'The account signed in to'),
  username: ofPerson(z.string(), 'Its username'),
  name: ofPerson(z.string(), "The person's name"),
  email: ofPerson(z.email(), "The account's e-mail address, or else the person's"),
  roles: ofPerson(z.array(z.enum(personRoles)), 'The roles the token acts in'),
  entity_id: ofPerson(z.uuid(), "The person's entity"),
  ...roleIdFields,
});
export type OAuthMeResponse = z.infer<typeof OAuthMeResponse>;

export const PublicJsonWebKey = z.strictObject({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.base64url(),
  y: z.base64url(),
  kid: z.string(),
  alg: z.literal(SIGNING_ALGORITHM),
  use: z.literal('sig'),
});

export const Jwks = z.strictObject({ keys: z.array(PublicJsonWebKey) });

export const AuthorizationServerMetadata = z.strictObject({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  revocation_endpoint: z.url(),
  jwks_uri: z.url(),
  grant_types_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  /** RFC 9207: authorization responses carry `iss`. */
  authorization_response_iss_parameter_supported: z.boolean(),
  /** OpenID Connect Discovery 1.0 section 3 and RP-Initiated Logout 1.0 section 3.1. */
  userinfo_endpoint: z.url(),
  end_session_endpoint: z.url(),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
  prompt_values_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  ui_locales_supported: z.array(z.string()),
  claims_parameter_supported: z.boolean(),
  request_parameter_supported: z.boolean(),
  request_uri_parameter_supported: z.boolean(),
});
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadata>;

/** Only the frame of an OpenAPI document: its full schema is the OpenAPI specification's own. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export const ProblemDetails = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string(),
  instance: z.string().optional(),
  request_id: z.string(),
  errors: z
    .array(
      z.strictObject({
        name: z.string(),
        in: z.enum(['query', 'path', 'header', 'body']),
        reason: z.string(),
      }),
    )
    .optional(),
});
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/** The problems the specification names, each a ProblemDetails with its status. */
export const BadRequestHttpException = ProblemDetails.extend({ status: z.literal(400) });
export const NotFoundHttpException = ProblemDetails.extend({ status: z.literal(404) });
export const InternalServerErrorHttpException = ProblemDetails.extend({ status: z.literal(500) });
