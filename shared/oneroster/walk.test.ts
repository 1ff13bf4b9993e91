// A page of a walk: entries made into objects a batch at a time, filtered, the page cut at its limit, an
// offset skipped when no position is given, and no more than the budget read past it
// (docs/oneroster.md, "What each request reads").
import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter';
import { type Placed, walkPage } from './walk';

type Obj = { sourcedId: string; givenName: string };
type Entry = { position: string; n: number };

/** Entries 1..n, counting how many the walk took. */
function entries(n: number) {
  const taken = { count: 0 };
  async function* generate(): AsyncGenerator<Entry> {
    for (let i = 1; i <= n; i += 1) {
      taken.count += 1;
      yield { position: `p${i}`, n: i };
    }
  }
  return { taken, entries: generate() };
}

/** Makes entries into objects, dropping multiples of 5 (not of the collection), and records each batch. */
function maker(batches: number[][]) {
  return async (batch: Entry[]): Promise<Placed<Obj>[]> => {
    batches.push(batch.map((e) => e.n));
    return batch
      .filter((e) => e.n % 5 !== 0)
      .map((e) => ({
        position: e.position,
        object: { sourcedId: `s${e.n}`, givenName: e.n % 2 ? 'Ana' : 'Rui' },
      }));
  };
}

const query = { limit: 3, offset: 0, after: undefined, filter: undefined };
const ids = (page: Placed<Obj>[]) => page.map((p) => p.object.sourcedId);

describe('walkPage', () => {
  const going = { ...query, after: 'p0' };

  it('goes on from a position a page at a time: limit + 1 entries, stopping once a page and one more are found', async () => {
    const batches: number[][] = [];
    const { taken, entries: walked } = entries(100);
    const page = await walkPage(walked, going, maker(batches));
    expect(ids(page.page)).toEqual(['s1', 's2', 's3']);
    expect(page).toMatchObject({ next: 'p3', total: undefined });
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(taken.count).toBe(4);
  });

  it('counts to the end on the first page, 200 entries at a time within its budget, and then knows the total', async () => {
    const first = await walkPage(entries(100).entries, query, maker([]));
    expect(ids(first.page)).toEqual(['s1', 's2', 's3']);
    expect(first).toMatchObject({ next: 'p3', total: 80 });
    expect(first.selected).toHaveLength(80);
    const { taken, entries: many } = entries(1000);
    const past = await walkPage(many, query, maker([]), 300);
    expect(past).toMatchObject({ next: 'p3', total: undefined });
    expect(taken.count).toBe(400);
  });

  it('reads on past what make drops and what the filter leaves out, and ends with the entries', async () => {
    const filter = parseFilter("givenName='Rui'");
    const page = await walkPage(entries(12).entries, { ...going, filter }, maker([]));
    expect(ids(page.page)).toEqual(['s2', 's4', 's6']);
    expect(page.next).toBe('p6');
    const last = await walkPage(entries(7).entries, { ...going, offset: 10, filter }, maker([]));
    expect(ids(last.page)).toEqual(['s2', 's4', 's6']);
    expect(last).toMatchObject({ next: undefined, total: 13 });
    expect(last.examined.map((o) => o.sourcedId)).toEqual(['s1', 's2', 's3', 's4', 's6', 's7']);
  });

  it('skips the first offset selected objects without a position, and none with one', async () => {
    const skipped = await walkPage(entries(20).entries, { ...query, offset: 4 }, maker([]));
    expect(ids(skipped.page)).toEqual(['s6', 's7', 's8']);
    expect(skipped.total).toBe(16);
    const from = await walkPage(entries(20).entries, { ...going, offset: 4 }, maker([]));
    expect(ids(from.page)).toEqual(['s1', 's2', 's3']);
    const beyond = await walkPage(entries(20).entries, { ...query, offset: 100 }, maker([]));
    expect(beyond).toMatchObject({ page: [], next: undefined, total: 16 });
  });

  it('stops at its budget with a short page that goes on after the last entry it read', async () => {
    const filter = parseFilter("givenName='Nobody'");
    const { taken, entries: walked } = entries(1000);
    const page = await walkPage(walked, { ...query, filter }, maker([]), 300);
    expect(page).toMatchObject({ page: [], next: 'p400', total: undefined });
    expect(taken.count).toBe(400);
    const sparse = parseFilter("givenName='Rui' AND sourcedId>'s6'");
    const short = await walkPage(entries(100).entries, { ...going, filter: sparse }, maker([]), 8);
    expect(ids(short.page)).toEqual(['s8']);
    expect(short.next).toBe('p8');
  });
});
