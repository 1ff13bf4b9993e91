// A page of a delta walk: entries made into objects a batch at a time, filtered, the page cut at its
// limit, an offset skipped when no position is given (docs/oneroster.md, "What each request reads").
import { describe, expect, it } from 'vitest';
import { type Placed, walkPage } from './delta-walk';
import { parseFilter } from './filter';

type Obj = { sourcedId: string; givenName: string };

/** Entries 1..n, counting how many the walk took. */
function entries(n: number) {
  const taken = { count: 0 };
  async function* generate() {
    for (let i = 1; i <= n; i += 1) {
      taken.count += 1;
      yield i;
    }
  }
  return { taken, entries: generate() };
}

/** Makes entries into objects, dropping multiples of 5 (not of the collection), and records each batch. */
function maker(batches: number[][]) {
  return async (batch: number[]): Promise<Placed<Obj>[]> => {
    batches.push(batch);
    return batch
      .filter((i) => i % 5 !== 0)
      .map((i) => ({ position: `p${i}`, object: { sourcedId: `s${i}`, givenName: i % 2 ? 'Ana' : 'Rui' } }));
  };
}

const query = { limit: 3, offset: 0, after: undefined, filter: undefined };
const ids = (page: Placed<Obj>[]) => page.map((p) => p.object.sourcedId);

describe('walkPage', () => {
  it('makes limit + 1 entries at a time and stops once a page and one more are found', async () => {
    const batches: number[][] = [];
    const { taken, entries: walked } = entries(100);
    const page = await walkPage(walked, query, maker(batches));
    expect(ids(page.page)).toEqual(['s1', 's2', 's3']);
    expect(page.more).toBe(true);
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(taken.count).toBe(4);
  });

  it('reads on past what make drops and what the filter leaves out, and ends with the entries', async () => {
    const filter = parseFilter("givenName='Rui'");
    const page = await walkPage(entries(12).entries, { ...query, filter }, maker([]));
    expect(ids(page.page)).toEqual(['s2', 's4', 's6']);
    expect(page.more).toBe(true);
    const last = await walkPage(entries(7).entries, { ...query, filter }, maker([]));
    expect(ids(last.page)).toEqual(['s2', 's4', 's6']);
    expect(last.more).toBe(false);
    expect(last.examined.map((o) => o.sourcedId)).toEqual(['s1', 's2', 's3', 's4', 's6', 's7']);
  });

  it('skips the first offset selected objects without a position, and none with one', async () => {
    expect(ids((await walkPage(entries(20).entries, { ...query, offset: 4 }, maker([]))).page)).toEqual([
      's6',
      's7',
      's8',
    ]);
    const from = await walkPage(entries(20).entries, { ...query, offset: 4, after: 'p0' }, maker([]));
    expect(ids(from.page)).toEqual(['s1', 's2', 's3']);
  });
});
