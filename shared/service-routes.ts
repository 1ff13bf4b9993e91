// The service's own operations, one row each, as the route table (shared/routes.ts) holds them beside the
// OneRoster binding's (shared/oneroster/routes.ts): method, path, handler, authentication, parameters, body
// limits, the dialect its errors are written in, whom its audit event names and the table partitions it
// may touch. The record groups' rows are built in record-routes.ts, and the table puts them first; the
// other areas' are here. Kept apart from the binding's rows and the record groups', so that a handler
// builds and bundles only its own area's rows: the token endpoint's cold start makes none of a record's.
import { LOGOUT_PARAMS } from './auth/oauth-terms';
import { schoolSources } from './auth/school-scope';
import { keys } from './data/keys';
import { recordGroups, type Scope } from './domain/groups';
import type { RouteBody } from './http/route';
import { type Route, type RouteAudit, row, rowOf } from './route';
import { problems, readRow, writeRow } from './route-rows';

/** An OAuth endpoint's request (RFC 6749 section 3.2): a form, or JSON; its errors are RFC 6749 bodies. */
const oauthEndpoint = {
  body: { type: 'form-or-json', maxBytes: 16 * 1024 },
  dialect: { kind: 'oauth' },
} as const;
/** What revoking a sign-in writes: its family, and the record every route's verifier reads. */
const signInRevocation = [keys.refreshFamilyPartition, keys.revocationPartition];

/**
 * The reads and writes of an area of routes that one scope guards (the administration API, webhooks):
 * handlers under `functions/<area>/`, answered in problem details, writes audited as `audit` says.
 */
const areaRows = (area: string, scope: Scope, audit?: RouteAudit) => ({
  reading: <const Id extends string>(r: {
    id: Id;
    path: string;
    operation: string;
    reads: readonly string[];
  }) =>
    readRow({ id: r.id, path: r.path, handler: `${area}/${r.operation}`, scope, query: [], reads: r.reads }),
  changing: <const Id extends string>(w: {
    id: Id;
    method: 'POST' | 'PUT' | 'DELETE';
    path: string;
    operation: string;
    reads: readonly string[];
    writes: readonly string[];
    body?: RouteBody;
  }) =>
    writeRow({
      id: w.id,
      method: w.method,
      path: w.path,
      handler: `${area}/${w.operation}`,
      scope,
      ...(audit ? { audit } : {}),
      ...(w.body ? { body: w.body } : {}),
      reads: w.reads,
      writes: w.writes,
    }),
});

/**
 * The administration API's routes over the tenant's OAuth clients: with the scope `clients:admin`,
 * answered in problem details; every change is audited, naming the client, and checks the sign-in.
 */
const adminRoutes = () => {
  const clients = '/api/admin/clients';
  const client = `${clients}/{client_id}`;
  const secrets = `${client}/secrets`;
  const registry = keys.clientPartition;
  const policies = keys.clientPolicyPartition;
  const credentials = keys.clientSecretPartition;
  const { reading, changing } = areaRows('admin', 'clients:admin', {
    group: 'clients',
    named: ['client_id'],
  });
  const registration = { type: 'json', maxBytes: 32 * 1024 } as const;
  return [
    reading({ id: 'list-clients', path: clients, operation: 'list-clients', reads: [registry] }),
    changing({
      id: 'create-client',
      method: 'POST',
      path: clients,
      operation: 'create-client',
      // Its schools are checked to be organisations.
      reads: [keys.recordPartition('entities')],
      writes: [registry, policies, credentials],
      body: registration,
    }),
    reading({ id: 'get-client', path: client, operation: 'get-client', reads: [registry] }),
    changing({
      id: 'replace-client',
      method: 'PUT',
      path: client,
      operation: 'replace-client',
      reads: [registry, keys.recordPartition('entities')],
      writes: [registry, policies],
      body: registration,
    }),
    changing({
      id: 'delete-client',
      method: 'DELETE',
      path: client,
      operation: 'delete-client',
      reads: [registry],
      writes: [registry, policies],
    }),
    reading({
      id: 'list-client-secrets',
      path: secrets,
      operation: 'list-client-secrets',
      reads: [registry, credentials],
    }),
    changing({
      id: 'create-client-secret',
      method: 'POST',
      path: secrets,
      operation: 'create-client-secret',
      reads: [registry, credentials],
      writes: [registry, credentials],
      body: { type: 'json', maxBytes: 1024 },
    }),
    changing({
      id: 'delete-client-secret',
      method: 'DELETE',
      path: `${secrets}/{secret_id}`,
      operation: 'delete-client-secret',
      reads: [],
      writes: [registry, credentials],
    }),
    reading({
      id: 'get-client-usage',
      path: `${client}/usage`,
      operation: 'get-client-usage',
      reads: [registry, keys.clientUsagePartition],
    }),
  ];
};

/**
 * The webhooks API's routes (docs/events.md): a client's own subscriptions, with the scope
 * `webhooks:manage`, answered in problem details. A replay is an item the stream function picks up.
 */
const webhookRoutes = () => {
  const webhooks = '/api/webhooks';
  const webhook = `${webhooks}/{webhook_id}`;
  const subscriptions = keys.webhookPartition;
  const { reading, changing } = areaRows('webhooks', 'webhooks:manage');
  const small = { type: 'json', maxBytes: 8 * 1024 } as const;
  return [
    reading({ id: 'list-webhooks', path: webhooks, operation: 'list', reads: [subscriptions] }),
    changing({
      id: 'create-webhook',
      method: 'POST',
      path: webhooks,
      operation: 'create',
      reads: [subscriptions],
      writes: [subscriptions],
      body: small,
    }),
    reading({ id: 'get-webhook', path: webhook, operation: 'get', reads: [subscriptions] }),
    changing({
      id: 'delete-webhook',
      method: 'DELETE',
      path: webhook,
      operation: 'delete',
      reads: [subscriptions],
      writes: [subscriptions],
    }),
    changing({
      id: 'enable-webhook',
      method: 'POST',
      path: `${webhook}/enable`,
      operation: 'enable',
      reads: [subscriptions],
      writes: [subscriptions],
    }),
    changing({
      id: 'rotate-webhook-secret',
      method: 'POST',
      path: `${webhook}/rotate-secret`,
      operation: 'rotate-secret',
      reads: [subscriptions],
      writes: [subscriptions],
    }),
    reading({
      id: 'list-webhook-deliveries',
      path: `${webhook}/deliveries`,
      operation: 'list-deliveries',
      reads: [subscriptions, keys.webhookDeliveryPartition],
    }),
    changing({
      id: 'replay-webhook',
      method: 'POST',
      path: `${webhook}/replay`,
      operation: 'replay',
      reads: [subscriptions],
      writes: [keys.webhookReplayPartition],
      body: small,
    }),
  ];
};

const table = [
  ...adminRoutes(),
  ...webhookRoutes(),
  row({
    id: 'get-system',
    method: 'GET',
    path: '/api/system',
    handler: 'system/get',
    auth: { kind: 'scope', scope: 'system:read' },
    query: [],
    access: 'read',
    dialect: problems,
    // A client registered with schools is told what they hold (school-scope.ts).
    reads: [keys.counterPartition, ...new Set(recordGroups.flatMap(schoolSources))],
    writes: [],
  }),
  row({
    id: 'create-token',
    method: 'POST',
    path: '/api/sso/token',
    handler: 'sso/token',
    auth: { kind: 'client' },
    query: [],
    access: 'sign',
    // A secret is read from its item and its use noted there; a refresh reads its token, family,
    // account and entity; a code exchange redeems the code (an update) and starts a family; rotation and
    // reuse write tokens and families.
    reads: [
      keys.clientPartition,
      keys.clientSecretPartition,
      keys.refreshTokenPartition,
      keys.refreshFamilyPartition,
      keys.userPartition,
      keys.recordPartition('entities'),
    ],
    writes: [
      keys.clientSecretPartition,
      keys.authorizationCodePartition,
      keys.refreshTokenPartition,
      ...signInRevocation,
    ],
    ...oauthEndpoint,
  }),
  row({
    id: 'revoke-token',
    method: 'POST',
    path: '/api/sso/revoke',
    handler: 'sso/revoke',
    auth: { kind: 'client' },
    query: [],
    access: 'write',
    reads: [keys.clientPartition, keys.clientSecretPartition, keys.refreshTokenPartition],
    writes: [keys.clientSecretPartition, ...signInRevocation],
    ...oauthEndpoint,
  }),
  row({
    id: 'get-authorize',
    method: 'GET',
    path: '/api/sso/authorize',
    handler: 'sso/authorize',
    auth: { kind: 'public' },
    query: [
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
      'nonce',
      'prompt',
      'max_age',
      'login_hint',
      'id_token_hint',
      'ui_locales',
    ],
    ignoreUnknownQuery: true,
    access: 'write',
    // A live sign-on session answers with a code at once: the session, its account and entity are read,
    // the session's idle end moved on and the code written. An id_token_hint is checked against the
    // public keys.
    reads: [
      keys.clientPartition,
      keys.sessionPartition,
      keys.userPartition,
      keys.recordPartition('entities'),
      keys.publicKeyPartition,
    ],
    writes: [keys.authorizationRequestPartition, keys.sessionPartition, keys.authorizationCodePartition],
    dialect: { kind: 'page', errors: [] },
  }),
  row({
    id: 'post-authorize',
    method: 'POST',
    path: '/api/sso/authorize',
    handler: 'sso/sign-in',
    auth: { kind: 'public' },
    query: [],
    access: 'write',
    body: { type: 'form', maxBytes: 8 * 1024 },
    // The throttle's counters are counted by conditional updates (writes) that return what they hold.
    reads: [
      keys.authorizationRequestPartition,
      keys.loginPartition,
      keys.userPartition,
      keys.recordPartition('entities'),
    ],
    // A sign-in starts a session (ending the browser's previous one); a TOTP code's step is recorded on
    // the account, so that no code is accepted twice.
    writes: [
      keys.authorizationRequestPartition,
      keys.signInThrottlePartition,
      keys.authorizationCodePartition,
      keys.sessionPartition,
      keys.userPartition,
    ],
    dialect: { kind: 'page', errors: [403, 429] },
  }),
  ...(['GET', 'POST'] as const).map((method) =>
    row({
      id: `${method === 'GET' ? 'get' : 'post'}-userinfo`,
      method,
      path: '/api/sso/userinfo',
      handler: method === 'GET' ? 'sso/userinfo' : 'sso/post-userinfo',
      auth: { kind: 'token' },
      checksSignIn: true,
      query: [],
      access: 'read',
      dialect: problems,
      // The person's account and entity.
      reads: [keys.userPartition, keys.recordPartition('entities')],
      writes: [],
    }),
  ),
  ...(['GET', 'POST'] as const).map((method) =>
    row({
      id: `${method === 'GET' ? 'get' : 'post'}-logout`,
      method,
      path: '/api/sso/logout',
      handler: method === 'GET' ? 'sso/logout' : 'sso/post-logout',
      auth: { kind: 'public' },
      query: method === 'GET' ? [...LOGOUT_PARAMS] : [],
      ignoreUnknownQuery: true,
      access: 'write',
      ...(method === 'POST' ? { body: { type: 'form', maxBytes: 16 * 1024 } } : {}),
      // The id_token_hint is checked against the public keys; the session, its account and the client's
      // registered addresses are read, the session deleted and the sign-ins it issued revoked.
      reads: [keys.clientPartition, keys.sessionPartition, keys.userPartition, keys.publicKeyPartition],
      writes: [keys.sessionPartition, ...signInRevocation],
      dialect: { kind: 'page', errors: [] },
    }),
  ),
  row({
    id: 'get-me',
    method: 'GET',
    path: '/api/sso/me',
    handler: 'sso/me',
    auth: { kind: 'token' },
    checksSignIn: true,
    query: [],
    access: 'read',
    dialect: problems,
    // A person's account and entity.
    reads: [keys.userPartition, keys.recordPartition('entities')],
    writes: [],
  }),
  row({
    id: 'get-jwks',
    method: 'GET',
    path: '/api/sso/jwks',
    handler: 'sso/jwks',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [keys.publicKeyPartition],
    writes: [],
  }),
  row({
    id: 'get-openid-configuration',
    method: 'GET',
    path: '/api/sso/.well-known/openid-configuration',
    handler: 'sso/openid-configuration',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [],
    writes: [],
  }),
  row({
    // The same metadata where RFC 8414 section 3.1 puts it for an issuer with a path: the well-known
    // segment first, then the issuer's path.
    id: 'get-oauth-authorization-server',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server/api/sso',
    handler: 'sso/authorization-server-metadata',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [],
    writes: [],
  }),
  row({
    id: 'get-openapi',
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'docs/openapi',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [],
    writes: [],
  }),
  row({
    id: 'get-docs',
    method: 'GET',
    path: '/api/docs',
    handler: 'docs/page',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [],
    writes: [],
  }),
  row({
    id: 'get-docs-asset',
    method: 'GET',
    path: '/api/docs/{asset}',
    handler: 'docs/asset',
    auth: { kind: 'public' },
    query: [],
    access: 'read',
    dialect: problems,
    reads: [],
    writes: [],
  }),
];

/** The id of each of the service's own routes, the fallback's too. */
export type ServiceRouteId = (typeof table)[number]['id'] | 'fallback';

export const serviceRoutes: readonly Route<ServiceRouteId>[] = table;

/** Answers every request no route matches: a 404 or 405 problem, locally and behind API Gateway alike. */
export const fallbackRoute: Route<'fallback'> = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
  handler: 'fallback/not-found',
  auth: { kind: 'public' },
  query: 'any',
  access: 'read',
  dialect: problems,
  reads: [],
  writes: [],
};

/** The row of one of the service's own routes, for its handler's factory. */
export const serviceRoute = (id: ServiceRouteId): Route => rowOf([...serviceRoutes, fallbackRoute], id);
