import { describe, expect, it } from 'vitest';
import { pageOfIds, pageOfWindow } from './pages-of-ids';

const ids = ['a1', 'b2', 'c3', 'd4', 'e5'];

describe('pages of a known set of ids (contract section 4)', () => {
  it('cut from an offset, as page=N does', () => {
    expect(pageOfIds(ids, { itemsPerPage: 2 })).toEqual({ ids: ['a1', 'b2'], hasMore: true });
    expect(pageOfIds(ids, { itemsPerPage: 2, skip: 4 })).toEqual({ ids: ['e5'], hasMore: false });
    expect(pageOfIds(ids, { itemsPerPage: 2, skip: 9 })).toEqual({ ids: [], hasMore: false });
    expect(pageOfIds(ids, { itemsPerPage: 5 })).toEqual({ ids, hasMore: false });
  });

  it('continue after a cursor id, whether or not that id is still in the set', () => {
    expect(pageOfIds(ids, { itemsPerPage: 2, after: 'b2' })).toEqual({ ids: ['c3', 'd4'], hasMore: true });
    expect(pageOfIds(ids, { itemsPerPage: 2, after: 'c' })).toEqual({ ids: ['c3', 'd4'], hasMore: true });
    expect(pageOfIds(ids, { itemsPerPage: 2, after: 'd4' })).toEqual({ ids: ['e5'], hasMore: false });
    expect(pageOfIds(ids, { itemsPerPage: 2, after: 'z' })).toEqual({ ids: [], hasMore: false });
    expect(pageOfIds([], { itemsPerPage: 2 })).toEqual({ ids: [], hasMore: false });
  });
});

describe('pages of a time window of entries read directly', () => {
  const at = (time: string, id: string) => ({ value: id, position: `2026-09-01T${time}Z#${id}` });
  const entries = [at('10:00:03', 'c'), at('10:00:01', 'a'), at('10:00:02', 'b'), at('10:00:02', 'a')];
  const window = { since: '2026-09-01T10:00:01Z', until: '2026-09-01T10:00:03Z', itemsPerPage: 10 };

  it('hold what changed after since, up to and including until, in time order', () => {
    const page = pageOfWindow(entries, window);
    expect(page.items.map((e) => e.position)).toEqual([
      '2026-09-01T10:00:02Z#a',
      '2026-09-01T10:00:02Z#b',
      '2026-09-01T10:00:03Z#c',
    ]);
    expect(page.hasMore).toBe(false);
  });

  it('continue after a position', () => {
    const first = pageOfWindow(entries, { ...window, itemsPerPage: 1 });
    expect(first.items.map((e) => e.value)).toEqual(['a']);
    expect(first.hasMore).toBe(true);
    const next = pageOfWindow(entries, { ...window, itemsPerPage: 1, after: first.items[0]?.position });
    expect(next.items.map((e) => e.value)).toEqual(['b']);
    expect(next.hasMore).toBe(true);
    const last = pageOfWindow(entries, { ...window, itemsPerPage: 1, after: next.items[0]?.position });
    expect(last).toEqual({ items: [at('10:00:03', 'c')], hasMore: false });
  });
});
