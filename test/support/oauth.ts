// Requests to the token and revocation endpoints as clients send them, checks of their RFC 6749 error
// bodies, and a snapshot of the token state in the table, to show that a refused request changed nothing.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { keys } from '../../shared/data/keys';
import type { ClientCreated } from '../../shared/schemas/clients';
import { OAuthErrorResponse, OAuthTokenResponse } from '../../shared/schemas/service';
import { json } from './contract';
import type { TestApi } from './test-api';

export const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** HTTP Basic client credentials, each part form-urlencoded first (RFC 6749 section 2.3.1). */
export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** POSTs a form (or, with a content-type header, any text) to an endpoint of /api/sso. */
export function postForm(
  api: Pick<TestApi, 'url'>,
  endpoint: 'token' | 'revoke',
  body: Record<string, string> | string | undefined,
  headers: Record<string, string> = {},
) {
  return fetch(`${api.url}/api/sso/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : form(body) }),
  });
}

export async function expectOAuthError(response: Response, status: number, error: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = JSON.parse(text) as unknown;
  expect(OAuthErrorResponse.safeParse(body).error).toBeUndefined();
  expect(body, text).toMatchObject({ error });
  if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
  return body as OAuthErrorResponse;
}

/** A successful token response: RFC 6749 section 5.1's body, not to be cached. */
export async function expectTokens(response: Response): Promise<OAuthTokenResponse> {
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  const body = await json<OAuthTokenResponse>(response);
  expect(OAuthTokenResponse.safeParse(body).error).toBeUndefined();
  return body;
}

/** Every item of the partitions the code and refresh grants keep their state in, revocations included. */
export async function tokenState(api: TestApi): Promise<Record<string, unknown>[]> {
  const partitions = [
    keys.authorizationCodePartition,
    keys.refreshTokenPartition,
    keys.refreshFamilyPartition,
    keys.revocationPartition,
  ];
  const items: Record<string, unknown>[] = [];
  for (const partition of partitions) {
    const { Items } = await api.db.send(
      new QueryCommand({
        TableName: api.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ConsistentRead: true,
      }),
    );
    items.push(...(Items ?? []));
  }
  return items;
}

/** Registers a client through the administration API, as the admin, and gets a token with its first secret. */
export async function registeredClient(api: TestApi, registration: Record<string, unknown>) {
  const response = await api.send('POST', '/api/admin/clients', registration);
  expect(response.status, await response.clone().text()).toBe(201);
  const { client, secret } = (await response.json()) as ClientCreated;
  const { access_token: token } = await expectTokens(
    await postForm(
      api,
      'token',
      { grant_type: 'client_credentials' },
      { authorization: basic(client.client_id, secret?.secret as string) },
    ),
  );
  return { client, token };
}
