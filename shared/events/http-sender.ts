// Sends one signed delivery over HTTP(S) to where its subscription points (docs/events.md): a POST of
// the JSON body with its Standard Webhooks headers, answered within WEBHOOK_TIMEOUT_MS or counted as
// failed. The connection is made only to an address the destination rules allow (destination.ts), and
// redirects are not followed: a receiver answers at the address it registered.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { allowedLiteralHost, type DestinationRules, guardedLookup } from './destination';
import type { SignedHeaders } from './signature';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface SendResult {
  /** The receiver's status code, when it answered. */
  status?: number;
  /** Why there was no answer. */
  error?: string;
  latencyMs: number;
}

export type Sender = (url: string, headers: SignedHeaders, body: string) => Promise<SendResult>;

export function httpSender(rules: DestinationRules, userAgent: string): Sender {
  const lookup = guardedLookup(rules);
  return (address, headers, body) => {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    const url = new URL(address);
    if (!allowedLiteralHost(url, rules)) {
      return Promise.resolve({ error: `${url.hostname} is not a public address`, latencyMs: 0 });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const request = send(
        url,
        {
          method: 'POST',
          lookup: lookup as never,
          timeout: WEBHOOK_TIMEOUT_MS,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': userAgent,
            ...headers,
          },
        },
        (response) => {
          // Only the status matters: the answer is read and dropped, so the connection can be reused.
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, latencyMs: latencyMs() }));
          response.on('error', (error) => resolve({ error: error.message, latencyMs: latencyMs() }));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS} ms`)));
      request.on('error', (error) => resolve({ error: error.message, latencyMs: latencyMs() }));
      request.end(body);
    });
  };
}
