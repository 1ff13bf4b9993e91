// The service's own operations, one row each, as the route table (shared/routes.ts) holds them beside the
// OneRoster binding's (shared/oneroster/routes.ts): method, path, handler, authentication, parameters, body
// limits, the dialect its errors are written in, whom its audit event names and the table partitions it
// may touch. Kept apart from the binding's rows so that a handler of either builds and bundles only its
// own area's rows.
import { LOGOUT_PARAMS } from './auth/oauth-terms';
import { reachSources } from './auth/reach';
import { partlyWritten } from './auth/roles';
import { ofOneClass, schoolHeldSources, schoolSources } from './auth/school-scope';
import { keys } from './data/keys';
import {
  type GroupDescription,
  groups,
  isDocumentGroup,
  isRoleGroup,
  type RecordGroup,
  type Reference,
  readScope,
  recordGroups,
  type Scope,
  writeScope,
} from './domain/groups';
import { LIMITS } from './domain/limits';
import type { RouteBody } from './http/route';
import { filterParameters } from './records/list-filters';
import { schoolDeletionSources } from './records/school-deletions';
import { type Route, type RouteAudit, row, rowOf } from './route';

const paging = ['page', 'items_per_page', 'cursor'] as const;

/** An OAuth endpoint's request (RFC 6749 section 3.2): a form, or JSON; its errors are RFC 6749 bodies. */
const oauthEndpoint = {
  body: { type: 'form-or-json', maxBytes: 16 * 1024 },
  dialect: { kind: 'oauth' },
} as const;
const problems = { kind: 'problem' } as const;
const jsonBody = { type: 'json', maxBytes: LIMITS.bodyBytes } as const;
/** What revoking a sign-in writes: its family, and the record every route's verifier reads. */
const signInRevocation = [keys.refreshFamilyPartition, keys.revocationPartition];

/** The partitions a group's operations touch (docs/data-model.md lists each item). */
function partitionsOf(group: RecordGroup) {
  const {
    processnumber,
    naturalKey,
    links: linked,
    references,
    fixed = [],
  } = groups[group] as GroupDescription;
  const record = keys.recordPartition(group);
  const numbered = processnumber ? [keys.processnumberPartition(group)] : [];
  // A natural key is claimed when the record is made and released when it is deleted: its fields are fixed.
  const claims = [...numbered, ...(naturalKey ? [keys.naturalKeyPartition(group)] : [])];
  const named = (all: boolean) => [
    ...(linked ? [keys.recordPartition(linked.group)] : []),
    ...new Set(
      references
        .filter((reference: Reference) => all || !fixed.includes(reference.field))
        .map((reference: Reference) => keys.recordPartition(reference.group)),
    ),
  ];
  const links = named(true);
  // A replace names no other record in a fixed field (an enrollment's class and person, a line item's class).
  const relinks = named(false);
  // Deleting a person ends their enrollments: each leaves its class and is recorded as deleted.
  const ended =
    group === 'entities'
      ? [
          keys.recordPartition('enrollments'),
          keys.deletionPartition('enrollments'),
          keys.gonePartition('enrollments'),
          keys.recordPartition('classes'),
        ]
      : [];
  // A person's role joins and leaves its entity.
  const owner = isRoleGroup(group) ? [keys.recordPartition('entities')] : [];
  // A person who may read only some of the group reads them by id, found from their own records.
  const reach = reachSources(group);
  // A client registered with schools reads what they hold, found from their classes (school-scope.ts).
  const schools = schoolSources(group);
  const readers = (...partitions: string[]) => [...new Set([...partitions, ...reach, ...schools])];
  // Whether it holds one record is asked of the record itself (SchoolHoldings.held).
  const held = schoolHeldSources(group);
  // A person who writes only the group's records of the classes they teach: their entity lists them.
  const writer = partlyWritten(group) ? [keys.recordPartition('entities')] : [];
  // A POST's Idempotency-Key: its kept response is read first and written in the POST's transaction.
  const idempotency = keys.idempotencyPartition(group);
  return {
    list: readers(record, keys.counterPartition, keys.changePartition(group)),
    get: [...new Set([record, keys.gonePartition(group), ...reach, ...held])],
    deleted: readers(keys.deletionPartition(group), ...schoolDeletionSources(group)),
    create: {
      // A school-scoped client's enrollment or line item is checked to be in its schools' classes (school-writes.ts).
      reads: [idempotency, ...(ofOneClass(group) ? [keys.recordPartition('classes')] : []), ...writer],
      writes: [record, keys.counterPartition, ...claims, ...owner, ...links, idempotency],
    },
    replace: {
      reads: [...new Set([record, keys.gonePartition(group), ...held, ...writer])],
      // A role record's `ative` moves its entity's change time (write-rules.ts, enabledSteps).
      writes: [...new Set([record, ...numbered, ...relinks, ...owner])],
    },
    remove: {
      reads: [...new Set([record, keys.gonePartition(group), ...owner, ...held, ...writer])],
      writes: [
        record,
        keys.counterPartition,
        keys.deletionPartition(group),
        keys.gonePartition(group),
        ...claims,
        ...owner,
        ...links,
        ...ended,
      ],
    },
    addDocument: {
      reads: [...new Set([record, keys.gonePartition(group), idempotency, ...held, ...writer])],
      writes: [record, idempotency],
    },
  };
}

/** A read: a GET with a scope, answered in problem details, writing nothing. */
const readRow = <const Id extends string>(r: {
  id: Id;
  path: string;
  handler: string;
  scope: Scope;
  audit?: RouteAudit;
  query: readonly string[];
  reads: readonly string[];
}) =>
  row({
    id: r.id,
    method: 'GET',
    path: r.path,
    handler: r.handler,
    ...(r.audit ? { audit: r.audit } : {}),
    auth: { kind: 'scope', scope: r.scope },
    query: r.query,
    access: 'read',
    dialect: problems,
    reads: r.reads,
    writes: [],
  });

/**
 * A write: with a scope, checking the sign-in, answered in problem details, taking a JSON body where it
 * has one.
 */
const writeRow = <const Id extends string>(w: {
  id: Id;
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: string;
  scope: Scope;
  audit?: RouteAudit;
  body?: RouteBody;
  idempotencyKey?: true;
  reads: readonly string[];
  writes: readonly string[];
}) =>
  row({
    id: w.id,
    method: w.method,
    path: w.path,
    handler: w.handler,
    ...(w.audit ? { audit: w.audit } : {}),
    auth: { kind: 'scope', scope: w.scope },
    checksSignIn: true,
    query: [],
    access: 'write',
    dialect: problems,
    ...(w.body ? { body: w.body } : {}),
    ...(w.idempotencyKey ? { idempotencyKey: true } : {}),
    reads: w.reads,
    writes: w.writes,
  });

const groupRoutes = <G extends RecordGroup>(group: G) => {
  const { idField: idParam } = groups[group];
  /** A person group's requests are audited, naming the record in the path where there is one. */
  const audit = (named: readonly string[]): { audit?: RouteAudit } => {
    const person: RecordGroup = group;
    return person === 'entities' || isRoleGroup(person) ? { audit: { group: person, named } } : {};
  };
  /** A read of the group, with its read scope. */
  const reading = <const Id extends string>(r: {
    id: Id;
    path: string;
    operation: string;
    named: readonly string[];
    query: readonly string[];
    reads: readonly string[];
  }) =>
    readRow({
      id: r.id,
      path: r.path,
      handler: `${group}/${r.operation}`,
      scope: readScope(group),
      ...audit(r.named),
      query: r.query,
      reads: r.reads,
    });
  /** A write of the group, with its write scope. */
  const writing = <const Id extends string>(w: {
    id: Id;
    method: 'POST' | 'PUT' | 'DELETE';
    path: string;
    operation: string;
    named: readonly string[];
    partitions: { reads: readonly string[]; writes: readonly string[] };
    body?: true;
    idempotencyKey?: true;
  }) =>
    writeRow({
      id: w.id,
      method: w.method,
      path: w.path,
      handler: `${group}/${w.operation}`,
      scope: writeScope(group),
      ...audit(w.named),
      ...(w.body ? { body: jsonBody } : {}),
      ...(w.idempotencyKey ? { idempotencyKey: true } : {}),
      ...w.partitions,
    });
  const all = `/api/${group}`;
  const one = `/api/${group}/{${idParam}}`;
  const partitions = partitionsOf(group);
  return [
    reading({
      id: `list-${group}`,
      path: all,
      operation: 'list',
      named: [],
      query: [...paging, 'updated_since', ...filterParameters(group), 'fields'],
      reads: partitions.list,
    }),
    reading({
      id: `get-${group}`,
      path: one,
      operation: 'get',
      named: [idParam],
      query: ['fields'],
      reads: partitions.get,
    }),
    reading({
      id: `list-deleted-${group}`,
      path: `${all}/deleted`,
      operation: 'list-deleted',
      named: [],
      query: ['since', 'items_per_page', 'cursor'],
      reads: partitions.deleted,
    }),
    writing({
      id: `create-${group}`,
      method: 'POST',
      path: all,
      operation: 'create',
      named: [],
      partitions: partitions.create,
      body: true,
      idempotencyKey: true,
    }),
    writing({
      id: `replace-${group}`,
      method: 'PUT',
      path: one,
      operation: 'replace',
      named: [idParam],
      partitions: partitions.replace,
      body: true,
    }),
    writing({
      id: `delete-${group}`,
      method: 'DELETE',
      path: one,
      operation: 'delete',
      named: [idParam],
      partitions: partitions.remove,
    }),
    ...(isDocumentGroup(group)
      ? [
          writing({
            id: `add-document-${group}`,
            method: 'POST',
            path: `${one}/documents`,
            operation: 'add-document',
            named: [idParam],
            partitions: partitions.addDocument,
            body: true,
            idempotencyKey: true,
          }),
        ]
      : []),
  ];
};

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
  ...recordGroups.flatMap(groupRoutes),
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

/** The ids of the record groups' routes. */
export type RecordRouteId = ReturnType<typeof groupRoutes<RecordGroup>>[number]['id'];

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
