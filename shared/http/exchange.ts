// What a handler is given and what it returns: the request as the API factory (api.ts) hands it over,
// and the response it turns into API Gateway's result. Who the caller is and what the configuration holds
// are the service's own types, which its wiring names (shared/exchange.ts).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { QueryParams } from './request';
import type { RequestCount } from './request-count';
import type { AuditSubject } from './subject';

/** What the factory reads of an authenticated caller, for the request's log lines. */
export interface Caller {
  clientId: string;
  person?: { entityId: string };
}

export interface ApiRequest<Auth extends Caller, Config> {
  event: APIGatewayProxyEventV2;
  /** The body as the JSON body parser left it: an object for JSON, the raw text otherwise. */
  body: unknown;
  query: QueryParams;
  path: Record<string, string | undefined>;
  auth: Auth | undefined;
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
  /** The person records the request read or changed, for its audit event. */
  audit?: AuditSubject;
  /** Counts of the request, published with its request metrics. */
  counts?: RequestCount[];
}

export type ApiHandler<Auth extends Caller, Config> = (
  request: ApiRequest<Auth, Config>,
) => Promise<ApiResponse>;
