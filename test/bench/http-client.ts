// A lean keep-alive HTTP client for latency samples: node:http with one reused socket, so a sample
// holds the request and its answer and nothing of a heavier client's own machinery.
import { Agent, request } from 'node:http';

export interface HttpClient {
  /** Sends a request and reads the whole answer; fails on any status other than the expected one. */
  send(
    path: string,
    options?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<string>;
  close(): void;
}

export function httpClient(baseUrl: string, expectedStatus = 200): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    send: (path, options = {}) =>
      new Promise((resolve, reject) => {
        const req = request(
          new URL(path, baseUrl),
          {
            agent,
            method: options.method ?? 'GET',
            headers: {
              ...options.headers,
              ...(options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if (res.statusCode === expectedStatus) resolve(text);
              else reject(new Error(`${path} answered ${res.statusCode}: ${text.slice(0, 300)}`));
            });
          },
        );
        req.on('error', reject);
        req.end(options.body);
      }),
    close: () => agent.destroy(),
  };
}
