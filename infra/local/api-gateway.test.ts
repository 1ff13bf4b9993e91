// The local stand-in hands bodies to the handlers as API Gateway (HTTP API, payload 2.0) does: as text for
// text and JSON, base64-encoded for everything else, forms included, so the handlers' decoding is exercised.
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { toEvent } from './api-gateway';

function request(contentType: string | undefined): IncomingMessage {
  return {
    url: '/api/sso/token',
    method: 'POST',
    httpVersion: '1.1',
    headers: { host: '127.0.0.1:3000', ...(contentType ? { 'content-type': contentType } : {}) },
    socket: new Socket(),
  } as unknown as IncomingMessage;
}

const body = Buffer.from('grant_type=client_credentials&scope=students%3Aread');

describe('request bodies as API Gateway hands them over', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml'])(
    'passes %s as text',
    (contentType) => {
      const event = toEvent(request(contentType), body, undefined, {});
      expect(event).toMatchObject({ isBase64Encoded: false, body: body.toString('utf8') });
    },
  );

  it.each(['application/x-www-form-urlencoded', 'application/octet-stream', undefined])(
    'base64-encodes %s',
    (contentType) => {
      const event = toEvent(request(contentType), body, undefined, {});
      expect(event).toMatchObject({ isBase64Encoded: true, body: body.toString('base64') });
    },
  );
});
