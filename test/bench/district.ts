// Section 8, district scale: the same native and OneRoster requests against the 160-student demo school
// and a generated district (infra/local/seed/district-roster.ts, seeded by `npm start` with DEMO_SIZE),
// interleaved request by request so both see the same machine, with p50 and p99 of each; and the read
// capacity of a page at the start, the middle and the end of a walk, read through the repositories the
// handlers use with DynamoDB's consumed-capacity report on.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ListingRepository } from '../../shared/data/listing-repository';
import { reportReadCapacity } from '../../shared/data/read-capacity';
import { RecordRepository } from '../../shared/data/record-repository';
import { idFields } from '../../shared/domain/groups';
import { RosterReader } from '../../shared/oneroster/roster-reader';
import type { ExportMeasure } from './export-child';
import { httpClient } from './http-client';
import { percentile, round, timed } from './stats';
import { DEMO_SECRET } from './workload';

const ROSTER = '/ims/oneroster/rostering/v1p2';
const PAGE = 100;

/** Milliseconds: the median and the 99th percentile of a route's samples. */
export interface Percentiles {
  n: number;
  p50: number;
  p99: number;
}

const percentiles = (samples: readonly number[]): Percentiles => ({
  n: samples.length,
  p50: round(percentile(samples, 50)),
  p99: round(percentile(samples, 99)),
});

export interface DistrictRoute {
  label: string;
  /** Latency per tenant, or the status it answered instead of 200. */
  demo: Percentiles | { status: number };
  district: Percentiles | { status: number };
}

export interface PageCapacity {
  collection: string;
  /** Read units of a page of 100: the first, one halfway through the walk, and the last. */
  first: number;
  middle: number;
  last: number;
}

export interface DistrictResults {
  students: number;
  /** Records of each group in the district, from its counters. */
  counts: Record<string, number>;
  /** How long `npm start` took to seed the district and answer. */
  seedSeconds: number;
  samples: number;
  routes: DistrictRoute[];
  capacity: PageCapacity[];
  /** A whole export of each tenant, in a process of its own (missing from runs before it was measured). */
  exports?: { demo: ExportMeasure; district: ExportMeasure };
}

interface Tenant {
  url: string;
  token: string;
  /** The token of a client registered with the tenant's first school alone (docs/sso.md, "School scoping"). */
  schoolToken: string;
}

async function tokenFor(url: string): Promise<string> {
  const response = await fetch(`${url}/api/sso/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: DEMO_SECRET,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token)
    throw new Error(`${url} gave no token (${response.status}): ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A client registered through the administration API with one school, and its token. */
async function schoolTokenFor(url: string, token: string): Promise<string> {
  const schools = await fetch(`${url}${ROSTER}/schools?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const school = ((await schools.json()) as { orgs: { sourcedId: string }[] }).orgs[0]?.sourcedId;
  const registered = await fetch(`${url}/api/admin/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'One school',
      scopes: [
        'students:read',
        'enrollments:read',
        'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly',
      ],
      schools: [school],
      rate_limit: 600_000,
    }),
  });
  if (registered.status !== 201) throw new Error(`${url} registered no client: ${await registered.text()}`);
  const { client, secret } = (await registered.json()) as {
    client: { client_id: string };
    secret: { secret: string };
  };
  const issued = await fetch(`${url}/api/sso/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: secret.secret,
    }),
  });
  return ((await issued.json()) as { access_token: string }).access_token;
}

/** A route of the section: its label, its path, and whether the one-school client reads it. */
type TimedRoute = [label: string, path: string, asSchool?: true];

async function read(tenant: Tenant, path: string, asSchool = false) {
  const response = await fetch(`${tenant.url}${path}`, {
    headers: { authorization: `Bearer ${asSchool ? tenant.schoolToken : tenant.token}` },
  });
  const body = (await response.json()) as Record<string, unknown>;
  const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  return { status: response.status, body, next, total: Number(response.headers.get('x-total-count')) };
}

/** The address of the page four fifths through a native list, found by following its cursors. */
async function deepNativePage(tenant: Tenant, group: string): Promise<string> {
  const first = await read(tenant, `/api/${group}?items_per_page=500`);
  const total = Number(first.body.total_items);
  let cursor = first.body.next_cursor as string | undefined;
  for (let seen = 500; cursor && seen < total * 0.8; seen += 500) {
    cursor = (await read(tenant, `/api/${group}?items_per_page=500&cursor=${cursor}`)).body.next_cursor as
      | string
      | undefined;
  }
  return cursor
    ? `/api/${group}?items_per_page=${PAGE}&cursor=${cursor}`
    : `/api/${group}?items_per_page=${PAGE}`;
}

/** The address of the page four fifths through a OneRoster collection, found by following its next links. */
async function deepRosterPage(tenant: Tenant, collection: string): Promise<string> {
  let page = await read(tenant, `${ROSTER}/${collection}?limit=1000`);
  const total = page.total;
  for (let seen = 1000; page.next && seen < total * 0.8; seen += 1000) {
    page = await read(tenant, new URL(page.next).pathname + new URL(page.next).search);
  }
  if (!page.next) return `${ROSTER}/${collection}?limit=${PAGE}`;
  const next = new URL(page.next);
  next.searchParams.set('limit', String(PAGE));
  return next.pathname + next.search;
}

/** The first student the one-school client reads. */
async function firstStudent(tenant: Tenant): Promise<string> {
  const { body } = await read(tenant, '/api/students?items_per_page=1', true);
  return (body.students as { student_id: string }[])[0]?.student_id ?? 'none';
}

/** What each route reads in a tenant: its own ids for the paths that name one. */
async function routesOf(tenant: Tenant, since: string): Promise<TimedRoute[]> {
  type Found = { sourcedId: string; course?: { sourcedId: string }; terms?: { sourcedId: string }[] };
  const firstOf = async (path: string, key: string): Promise<Found> => {
    const { status, body } = await read(tenant, path);
    if (status !== 200)
      throw new Error(`${tenant.url}${path} answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
    return (body[key] as Found[])[0] ?? { sourcedId: 'none' };
  };
  const firstClass = await firstOf(`${ROSTER}/classes?limit=1`, 'classes');
  const classId = firstClass.sourcedId;
  const schoolId = (await firstOf(`${ROSTER}/schools?limit=1`, 'orgs')).sourcedId;
  const userId = (await firstOf(`${ROSTER}/students?limit=1`, 'users')).sourcedId;
  const students = (await read(tenant, `${ROSTER}/students?limit=1`)).total;
  const delta = encodeURIComponent(`dateLastModified>'${since}'`);
  // A first sync by delta: a time before anything was loaded, so every record has changed since.
  const everything = encodeURIComponent("dateLastModified>'2000-01-01T00:00:00Z'");
  return [
    ['native `/api/students`, first page', `/api/students?items_per_page=${PAGE}`],
    ['native `/api/students`, deep cursor', await deepNativePage(tenant, 'students')],
    ['native `/api/students?ative=true`', `/api/students?items_per_page=${PAGE}&ative=true`],
    ['native `/api/enrollments`, deep cursor', await deepNativePage(tenant, 'enrollments')],
    ['OneRoster `/users`, first page', `${ROSTER}/users?limit=${PAGE}`],
    ['OneRoster `/users`, deep `Link` next', await deepRosterPage(tenant, 'users')],
    [
      'OneRoster `/students?offset=` four fifths in',
      `${ROSTER}/students?limit=${PAGE}&offset=${Math.floor(students * 0.8)}`,
    ],
    ['OneRoster `/enrollments`, first page', `${ROSTER}/enrollments?limit=${PAGE}`],
    ['OneRoster `/enrollments`, deep `Link` next', await deepRosterPage(tenant, 'enrollments')],
    ['OneRoster `/users?filter=dateLastModified>`', `${ROSTER}/users?limit=${PAGE}&filter=${delta}`],
    [
      'OneRoster `/users?filter=dateLastModified>` before the load (every person)',
      `${ROSTER}/users?limit=${PAGE}&filter=${everything}`,
    ],
    [
      'OneRoster `/enrollments?filter=dateLastModified>` before the load',
      `${ROSTER}/enrollments?limit=${PAGE}&filter=${everything}`,
    ],
    ['OneRoster `/classes`, first page', `${ROSTER}/classes?limit=${PAGE}`],
    ['OneRoster `/classes/{id}/students`', `${ROSTER}/classes/${classId}/students`],
    ['OneRoster `/schools/{id}/students`', `${ROSTER}/schools/${schoolId}/students?limit=${PAGE}`],
    [
      'OneRoster `/courses/{id}/classes`',
      `${ROSTER}/courses/${firstClass.course?.sourcedId}/classes?limit=${PAGE}`,
    ],
    [
      'OneRoster `/terms/{id}/classes`',
      `${ROSTER}/terms/${firstClass.terms?.[0]?.sourcedId}/classes?limit=${PAGE}`,
    ],
    ['OneRoster `/users/{id}`', `${ROSTER}/users/${userId}`],
    [
      'native `/api/students`, first page, as a one-school client',
      `/api/students?items_per_page=${PAGE}`,
      true,
    ],
    [
      'native `/api/students/{id}`, as a one-school client',
      `/api/students/${await firstStudent(tenant)}`,
      true,
    ],
    ['OneRoster `/students`, first page, as a one-school client', `${ROSTER}/students?limit=${PAGE}`, true],
    [
      'OneRoster `/enrollments`, first page, as a one-school client',
      `${ROSTER}/enrollments?limit=${PAGE}`,
      true,
    ],
  ];
}

/**
 * Times every route in both tenants, interleaved: each sample requests it of the demo school, then
 * of the district. A route that answers another status than 200 is reported with it, untimed.
 */
export async function measureDistrictRoutes(
  demo: string,
  district: string,
  samples: number,
): Promise<DistrictRoute[]> {
  const since = new Date().toISOString();
  const tenants = await Promise.all(
    [demo, district].map(async (url) => {
      const token = await tokenFor(url);
      return { url, token, schoolToken: await schoolTokenFor(url, token) };
    }),
  );
  const [demoRoutes, districtRoutes] = await Promise.all(tenants.map((t) => routesOf(t, since)));
  const results: DistrictRoute[] = [];
  for (const [index, [label, demoPath, asSchool = false]] of (demoRoutes ?? []).entries()) {
    const districtPath = districtRoutes?.[index]?.[1] as string;
    const sides = [
      { tenant: tenants[0] as Tenant, path: demoPath },
      { tenant: tenants[1] as Tenant, path: districtPath },
    ];
    const statuses = await Promise.all(
      sides.map(async (s) => (await read(s.tenant, s.path, asSchool)).status),
    );
    const clients = sides.map((s) => httpClient(s.tenant.url));
    const times: number[][] = [[], []];
    try {
      for (let i = 0; i < samples; i++) {
        for (const [side, { tenant, path }] of sides.entries()) {
          if (statuses[side] !== 200) continue;
          const headers = { authorization: `Bearer ${asSchool ? tenant.schoolToken : tenant.token}` };
          (times[side] as number[]).push(
            await timed(() => (clients[side] as ReturnType<typeof httpClient>).send(path, { headers })),
          );
        }
      }
    } finally {
      for (const client of clients) client.close();
    }
    const outcome = (side: number) =>
      statuses[side] === 200 ? percentiles(times[side] as number[]) : { status: statuses[side] as number };
    results.push({ label, demo: outcome(0), district: outcome(1) });
  }
  return results;
}

/** Read units of one read, through a client that reports what each read consumed. */
async function unitsOf(consumed: number[], read: () => Promise<unknown>): Promise<number> {
  consumed.length = 0;
  await read();
  return round(
    consumed.reduce((sum, units) => sum + units, 0),
    1,
  );
}

/**
 * The read capacity of a page of 100 at the start, the middle and the end of a walk in sourcedId order,
 * each continuing after the object before it (as the next links do), for the collections a district
 * pulls every night.
 */
export async function measurePageCapacity(
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<PageCapacity[]> {
  const consumed: number[] = [];
  reportReadCapacity(db, (capacity) => consumed.push(capacity.CapacityUnits ?? 0));
  const records = new RecordRepository(db, tableName);
  const listings = new ListingRepository(db, tableName);
  const reader = new RosterReader(records, listings, 0);
  const query = (after: string | undefined) => ({ limit: PAGE, offset: 0, after });
  const results: PageCapacity[] = [];
  for (const listing of ['users', 'students'] as const) {
    const total = await records.count(listing === 'users' ? 'entities' : 'students');
    const at = async (offset: number) => (offset > 0 ? listings.sortAt(listing, offset) : undefined);
    const [middle, last] = await Promise.all([at(Math.floor(total / 2)), at(Math.max(0, total - PAGE))]);
    results.push({
      collection: `/${listing}`,
      first: await unitsOf(consumed, () => reader.peoplePage(listing, query(undefined))),
      middle: await unitsOf(consumed, () => reader.peoplePage(listing, query(middle))),
      last: await unitsOf(consumed, () => reader.peoplePage(listing, query(last))),
    });
  }
  for (const group of ['enrollments', 'classes'] as const) {
    const total = await records.count(group);
    const idAt = async (skip: number) =>
      skip > 0 ? (await records.listPage(group, { itemsPerPage: 1, skip: skip - 1 })).items[0] : undefined;
    const [middle, last] = await Promise.all([idAt(Math.floor(total / 2)), idAt(Math.max(0, total - PAGE))]);
    const idOf = (record: object | undefined) =>
      record ? ((record as Record<string, string>)[idFields[group]] as string) : undefined;
    results.push({
      collection: `/${group}`,
      first: await unitsOf(consumed, () => reader.page(group, query(undefined))),
      middle: await unitsOf(consumed, () => reader.page(group, query(idOf(middle)))),
      last: await unitsOf(consumed, () => reader.page(group, query(idOf(last)))),
    });
  }
  return results;
}
