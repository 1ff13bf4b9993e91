// Each route's handler module names that route and no other, and no two routes share a module: a handler
// copied from another file and left naming the first route would serve it with the first route's scopes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handlerEntry } from '../infra/bundling';
import { fallbackRoute, routes } from '../shared/routes';

const all = [...routes, fallbackRoute];

/**
 * The route ids a module hands to a factory of shared/wiring (api, oneRosterApi, pageApi, ...: each named
 * `…Api`), by id or as the row `serviceRoute`, `recordRoute` or `gradebookWriteRoute` finds.
 */
const namedRoutes = (source: string) =>
  [
    ...source.matchAll(
      /\b(?:api|[a-z][A-Za-z]*Api)\(\s*(?:(?:serviceRoute|recordRoute|gradebookWriteRoute)\(\s*)?'([^']+)'/g,
    ),
  ].map((m) => m[1]);

describe('route handlers', () => {
  it.each(all.map((route) => [route.id, route] as const))('%s: its module names exactly it', (id, route) => {
    expect(namedRoutes(readFileSync(handlerEntry(route), 'utf8'))).toEqual([id]);
  });

  it('are one module a route', () => {
    const handlers = all.map((route) => route.handler);
    expect(handlers.filter((handler, i) => handlers.indexOf(handler) !== i)).toEqual([]);
  });
});
