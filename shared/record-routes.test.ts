import { describe, expect, it } from 'vitest';
import { type RecordRouteId, recordRoute, recordRoutes } from './record-routes';

describe("a record handler's row", () => {
  it('is, for every record route, the row of the whole table, made from its group or the routes beside them alone', () => {
    const table = recordRoutes();
    expect(table.length).toBeGreaterThan(100);
    for (const route of table) expect(recordRoute(route.id), route.id).toEqual(route);
  });

  it('is refused at import for an id the table does not hold', () => {
    expect(() => recordRoute('get-nothing' as RecordRouteId)).toThrow(
      'No route get-nothing in the route table',
    );
  });
});
