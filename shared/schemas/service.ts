// Shapes of the non-record responses: tenant status, OAuth responses and problems.
import * as z from 'zod';

export const SystemStatus = z.strictObject({
  tenant_id: z.string(),
  tenant_name: z.string(),
  service: z.string(),
  version: z.string(),
  status: z.literal('ok'),
  server_time: z.iso.datetime(),
  counts: z.strictObject({
    entities: z.int().min(0),
    students: z.int().min(0),
    teachers: z.int().min(0),
    tutors: z.int().min(0),
    staffs: z.int().min(0),
  }),
});
export type SystemStatus = z.infer<typeof SystemStatus>;

export const OAuthTokenResponse = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int().positive(),
  scope: z.string(),
});
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponse>;

export const OAuthErrorResponse = z.strictObject({
  error: z.enum([
    'invalid_request',
    'invalid_client',
    'unsupported_grant_type',
    'invalid_scope',
    'unauthorized_client',
  ]),
  error_description: z.string(),
});
export type OAuthErrorResponse = z.infer<typeof OAuthErrorResponse>;

export const OAuthMeResponse = z.strictObject({
  sub: z.string(),
  client_id: z.string(),
  tenant_id: z.string(),
  scopes: z.array(z.string()),
  exp: z.int(),
  expires_at: z.iso.datetime(),
});
export type OAuthMeResponse = z.infer<typeof OAuthMeResponse>;

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
