// What a handler is given and what it returns: the request as the API factory (api.ts) hands it over,
// and the response it turns into API Gateway's result.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AccessToken } from '../auth/access-token';
import type { Config } from '../config';
import type { BusinessCount } from '../metrics';
import type { QueryParams } from './request';
import type { AuditSubject } from './subject';

export interface ApiRequest {
  event: APIGatewayProxyEventV2;
  /** The body as the JSON body parser left it: an object for JSON, the raw text otherwise. */
  body: unknown;
  query: QueryParams;
  path: Record<string, string | undefined>;
  auth: AccessToken | undefined;
  requestId: string;
  config: Config;
}

export interface ApiResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is (already serialised JSON, or other text). */
  rawBody?: string;
  /** `rawBody` is base64 of binary content (a compressed body). */
  isBase64Encoded?: boolean;
  /** Set-Cookie values. */
  cookies?: string[];
  /** The person records the request read or changed, for its audit event (shared/audit/). */
  audit?: AuditSubject;
  /** Business counts of the request (shared/metrics.ts), published with its request metrics. */
  counts?: BusinessCount[];
}

export type ApiHandler = (request: ApiRequest) => Promise<ApiResponse>;
