// Each function's bundle holds what its operation uses and nothing else (esbuild's metafile of the
// bundles the stack ships): a read holds no writer, sign-in, Secrets Manager, OpenAPI or schema library
// beyond zod/mini; only the token endpoint reads the private key; no route function loads zod's classic API.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFunctionBundles, type FunctionBundle } from './bundles';

let bundles: FunctionBundle[];
beforeAll(async () => {
  bundles = await buildFunctionBundles();
}, 120_000);

const holds = (bundle: FunctionBundle, pattern: RegExp) =>
  [...bundle.inputs.keys()].filter((input) => pattern.test(input));
const routeBundles = () => bundles.filter((bundle) => bundle.route);

const WRITER = /shared\/records\/(record-writer|write-records)\.ts$/;
const SIGN_IN = /shared\/auth\/(sign-in|sign-in-throttle|authorization-request|csrf)\.ts$/;
const SECRETS_MANAGER = /@aws-sdk\/client-secrets-manager\//;
const OPENAPI = /shared\/(openapi|docs)\//;
const ZOD_CLASSIC = /node_modules\/zod\/v4\/classic\//;
const ANY_ZOD = /node_modules\/zod\//;
const DYNAMODB = /@aws-sdk\/client-dynamodb\//;
/** The zip library, for the scheduled export's OneRoster CSV zip only. */
const ZIP = /node_modules\/fflate\//;
/** The OneRoster binding's error format and rows, which only its own routes use. */
const IMSX = /shared\/oneroster\/(dialect|status-info|routes)\.ts$/;
/** The service's own rows, which the binding's routes do without. */
const SERVICE_ROWS = /shared\/service-routes\.ts$/;
/** The sign-in check of writes and /me, which reads do without. */
const SIGN_IN_CHECK = /shared\/wiring\/revocable-api\.ts$/;

describe('function bundles', () => {
  it('were built for every route and the two other functions', () => {
    expect(routeBundles().length).toBeGreaterThan(40);
    expect(bundles.map((b) => b.name)).toEqual(
      expect.arrayContaining(['scheduled-export', 'signing-key-resource']),
    );
  });

  it('of reads hold no writer, sign-in, Secrets Manager, OpenAPI or schema library, nor the sign-in check', () => {
    for (const bundle of routeBundles().filter(
      (b) => b.route?.access === 'read' && !b.route.handler.startsWith('docs/'),
    )) {
      const forbidden = [WRITER, SIGN_IN, SECRETS_MANAGER, OPENAPI, ANY_ZOD];
      for (const pattern of bundle.route?.checksSignIn ? forbidden : [...forbidden, SIGN_IN_CHECK]) {
        expect(holds(bundle, pattern), `${bundle.name} holds ${pattern}`).toEqual([]);
      }
    }
  });

  it("of the service's own routes hold nothing of the OneRoster binding's rows and errors, and the binding's none of theirs", () => {
    // The fallback matches every path against the whole table, and the API description describes it.
    const wholeTable = (b: FunctionBundle) =>
      b.route?.id === 'fallback' || b.route?.handler.startsWith('docs/');
    const native = routeBundles().filter((b) => b.route?.dialect.kind !== 'imsx' && !wholeTable(b));
    for (const bundle of native) expect(holds(bundle, IMSX), `${bundle.name} holds ${IMSX}`).toEqual([]);
    const binding = routeBundles().filter((b) => b.route?.dialect.kind === 'imsx');
    expect(binding.length).toBeGreaterThan(0);
    for (const bundle of binding) {
      expect(holds(bundle, IMSX).length, bundle.name).toBeGreaterThan(0);
      expect(holds(bundle, SERVICE_ROWS), `${bundle.name} holds ${SERVICE_ROWS}`).toEqual([]);
    }
  });

  it('of routes that check the sign-in hold the check but no sign-in, Secrets Manager or OpenAPI, and only zod/mini', () => {
    const checking = routeBundles().filter((b) => b.route?.checksSignIn);
    expect(checking.filter((b) => b.route?.access === 'write').length).toBeGreaterThan(0);
    for (const bundle of checking) {
      for (const pattern of [SIGN_IN, SECRETS_MANAGER, OPENAPI, ZOD_CLASSIC]) {
        expect(holds(bundle, pattern), `${bundle.name} holds ${pattern}`).toEqual([]);
      }
      // The routes that check the sign-in and write are the record writes, the administration API's and
      // the webhooks API's; only the first write records.
      const writesRecords = !/^(admin|webhooks)\//.test(bundle.route?.handler ?? '');
      if (bundle.route?.access === 'write' && writesRecords)
        expect(holds(bundle, WRITER).length, bundle.name).toBeGreaterThan(0);
      expect(holds(bundle, SIGN_IN_CHECK).length, bundle.name).toBeGreaterThan(0);
    }
  });

  it('hold the zip library only in the scheduled export, which writes the OneRoster CSV zip', () => {
    for (const bundle of routeBundles())
      expect(holds(bundle, ZIP), `${bundle.name} holds ${ZIP}`).toEqual([]);
    const exporter = bundles.find((b) => b.name === 'scheduled-export');
    expect(exporter && holds(exporter, ZIP).length).toBeGreaterThan(0);
  });

  it('hold the Secrets Manager client only where the private key is read', () => {
    const readers = routeBundles().filter((bundle) => holds(bundle, SECRETS_MANAGER).length > 0);
    expect(readers.map((b) => b.name)).toEqual(['create-token']);
  });

  it("of routes load no zod classic API; only the API description's function holds the schemas", () => {
    for (const bundle of routeBundles().filter((b) => b.name !== 'get-openapi')) {
      expect(holds(bundle, ZOD_CLASSIC), bundle.name).toEqual([]);
      expect(holds(bundle, /shared\/(schemas\/(records|service|components)|openapi\/)/), bundle.name).toEqual(
        [],
      );
    }
  });

  it('of functions that never touch the table hold no DynamoDB client', () => {
    for (const name of [
      'fallback',
      'get-openid-configuration',
      'get-oauth-authorization-server',
      'get-docs',
      'get-docs-asset',
      'get-openapi',
    ]) {
      const bundle = bundles.find((b) => b.name === name);
      expect(bundle && holds(bundle, DYNAMODB), name).toEqual([]);
    }
  });
});
