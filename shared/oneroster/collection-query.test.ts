// Paging, sorting and field selection of OneRoster collections (Rostering REST binding, section 3.4).
import { describe, expect, it } from 'vitest';
import { QueryParams } from '../http/request';
import {
  deltaWindow,
  inChangeOrder,
  MAX_LIMIT,
  pagingHeaders,
  parseCollectionQuery,
  selectFields,
  selectPage,
  toldOf,
} from './collection-query';
import { OneRosterError } from './status-info';

const known = ['sourcedId', 'givenName', 'familyName', 'roles', 'dateLastModified'];
const parse = (qs: string) => parseCollectionQuery(new QueryParams(qs), known);
const objects = ['c', 'a', 'e', 'b', 'd'].map((id, i) => ({
  sourcedId: id,
  givenName: ['Rui', 'ana', 'Bea', 'Ana', 'Zé'][i] as string,
  familyName: 'Silva',
}));

const refusal = (qs: string) => {
  try {
    parse(qs);
  } catch (error) {
    if (error instanceof OneRosterError) return [error.status, error.codeMinor];
  }
  return undefined;
};

describe('parseCollectionQuery', () => {
  it('defaults to the first 100 in ascending order, every field', () => {
    expect(parse('')).toEqual({
      limit: 100,
      offset: 0,
      sort: undefined,
      orderBy: 'asc',
      filter: undefined,
      fields: undefined,
    });
  });

  it('refuses bad paging, ordering, sort, filter and fields with the binding codeMinor', () => {
    expect(refusal('limit=0')).toEqual([400, 'invaliddata']);
    expect(refusal('limit=ten')).toEqual([400, 'invaliddata']);
    expect(refusal('offset=-1')).toEqual([400, 'invaliddata']);
    expect(refusal('orderBy=up')).toEqual([400, 'invaliddata']);
    expect(refusal('sort=shoeSize')).toEqual([400, 'invalid_selection_field']);
    expect(refusal('fields=sourcedId,')).toEqual([400, 'invalid_selection_field']);
    expect(refusal('fields=')).toEqual([400, 'invalid_selection_field']);
    expect(refusal("filter=shoeSize='42'")).toEqual([400, 'invalid_filter_field']);
    expect(refusal('filter=givenName')).toEqual([400, 'invalid_filter_field']);
    expect(refusal('limit=1&limit=2')).toBeUndefined();
  });

  it('refuses a query whose Link addresses would outgrow what HTTP clients read, counted URL-encoded', () => {
    const emoji = '\u{1F600}'.repeat(300);
    expect([...emoji].length).toBeLessThan(1_000);
    expect(refusal(`fields=${encodeURIComponent(emoji)}`)).toEqual([400, 'invaliddata']);
    expect(refusal(`filter=${encodeURIComponent(`givenName='${'a'.repeat(1_900)}'`)}`)).toBeUndefined();
    expect(refusal(`filter=${encodeURIComponent(`givenName='${'a'.repeat(2_000)}'`)}`)).toEqual([
      400,
      'invaliddata',
    ]);
  });

  it('serves a limit above the largest page as the largest page', () => {
    expect(parse('limit=1001').limit).toBe(MAX_LIMIT);
    expect(parse('limit=999999999').limit).toBe(MAX_LIMIT);
  });

  it('takes fields as a list or repeated, and every field when one is unknown (binding section 3.4)', () => {
    expect(parse('fields=sourcedId,%20givenName').fields).toEqual(['sourcedId', 'givenName']);
    expect(parse('fields=sourcedId&fields=givenName').fields).toEqual(['sourcedId', 'givenName']);
    expect(parse('fields=sourcedId,shoeSize').fields).toBeUndefined();
  });
});

describe('toldOf', () => {
  const told = (qs: string) => {
    const query = parse(`limit=1&offset=100&${qs}`);
    return toldOf(objects, query.filter, selectPage(objects, query).selected)
      .map((o) => o.sourcedId)
      .sort();
  };

  it('tells of nobody beyond the page without a filter', () => {
    expect(told('')).toEqual([]);
  });

  it('tells of every object the filter selects, past the page too', () => {
    expect(told("filter=givenName~'a'")).toEqual(['a', 'b', 'e']);
    expect(told("filter=givenName='Rui' OR sourcedId='d'")).toEqual(['c', 'd']);
  });

  it('tells of the one a predicate picks out and the other asks about, whether it is counted or not', () => {
    expect(told("filter=sourcedId='c' AND givenName>'R'")).toEqual(['c']);
    expect(told("filter=sourcedId='c' AND givenName<'R'")).toEqual(['c']);
    expect(told("filter=givenName<'R' AND sourcedId='c'")).toEqual(['c']);
    expect(told("filter=familyName='Silva' AND givenName='Bea'")).toEqual(['e']);
  });
});

describe('delta reads in change order', () => {
  const id = '0b6c5a8e-3f0f-4a55-9b8e-2d7c1f0a9e11';
  const since = "filter=dateLastModified>'2026-01-01T00:00:00Z'";

  it('finds the window of a dateLastModified> or >= predicate alone or joined with AND, never with OR', () => {
    expect(deltaWindow(parse(since).filter)).toEqual({ since: '2026-01-01T00:00:00Z', inclusive: false });
    expect(deltaWindow(parse(`${since} AND givenName='Ana'`).filter)?.since).toBe('2026-01-01T00:00:00Z');
    expect(deltaWindow(parse(`${since} OR givenName='Ana'`).filter)).toBeUndefined();
    expect(deltaWindow(parse("filter=dateLastModified<'2026-01-01T00:00:00Z'").filter)).toBeUndefined();
  });

  it('walks in change order without sort or sorted by dateLastModified ascending', () => {
    expect(inChangeOrder(parse(since))).toBe(true);
    expect(inChangeOrder(parse(`${since}&sort=dateLastModified`))).toBe(true);
    expect(inChangeOrder(parse(`${since}&sort=givenName`))).toBe(false);
    expect(inChangeOrder(parse(`${since}&orderBy=desc`))).toBe(false);
    expect(inChangeOrder(parse(''))).toBe(false);
  });

  it('takes after as a position in change order and as a sourcedId in sourcedId order, and nothing else', () => {
    const at = `2026-02-03T04:05:06.789Z#${id.toUpperCase()}`;
    expect(parse(`${since}&after=${encodeURIComponent(at)}`).after).toBe(`2026-02-03T04:05:06.789Z#${id}`);
    expect(parse(`after=${id}`).after).toBe(id);
    expect(refusal(`${since}&after=${id}`)).toEqual([400, 'invaliddata']);
    expect(refusal(`after=${encodeURIComponent(at)}`)).toEqual([400, 'invaliddata']);
    expect(refusal(`${since}&after=${encodeURIComponent(`2026-02-30T99:00:00Z#${id}`)}`)).toEqual([
      400,
      'invaliddata',
    ]);
    expect(refusal(`${since}&sort=givenName&after=${encodeURIComponent(at)}`)).toEqual([400, 'invaliddata']);
  });

  it('sorts a delta read whole in change order, ties in sourcedId order', () => {
    const changed = [
      { sourcedId: 'b', dateLastModified: '2026-01-02T00:00:00.000Z' },
      { sourcedId: 'c', dateLastModified: '2026-01-01T12:00:00.000Z' },
      { sourcedId: 'a', dateLastModified: '2026-01-02T00:00:00.000Z' },
    ];
    expect(selectPage(changed, parse(since)).page.map((o) => o.sourcedId)).toEqual(['c', 'a', 'b']);
  });
});

describe('selectPage', () => {
  it('keeps sourcedId order without sort, and pages by offset and limit', () => {
    const { page, total } = selectPage(objects, parse('offset=1&limit=2'));
    expect(total).toBe(5);
    expect(page.map((o) => o.sourcedId)).toEqual(['b', 'c']);
  });

  it('sorts by a field either way, ties in sourcedId order, after filtering', () => {
    const asc = selectPage(objects, parse('sort=givenName'));
    expect(asc.page.map((o) => o.givenName)).toEqual(['ana', 'Ana', 'Bea', 'Rui', 'Zé']);
    const desc = selectPage(objects, parse("sort=givenName&orderBy=desc&filter=givenName~'a'"));
    expect(desc.page.map((o) => o.sourcedId)).toEqual(['e', 'b', 'a']);
    expect(desc.total).toBe(3);
  });

  it('keeps only the fields asked for', () => {
    const query = parse('fields=sourcedId,familyName&limit=1');
    const { page } = selectPage(objects, query);
    expect(page.map((o) => selectFields(o, query.fields))).toEqual([{ sourcedId: 'a', familyName: 'Silva' }]);
  });
});

describe('pagingHeaders', () => {
  const url = 'https://x.test/ims/oneroster/rostering/v1p2/users';
  const links = (qs: string, total: number) => {
    const query = new QueryParams(qs);
    const headers = pagingHeaders(url, query, parse(qs), total);
    return {
      total: headers['x-total-count'],
      links: Object.fromEntries(
        headers.link?.split(', ').map((l) => {
          const [, target, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(l) ?? [];
          return [rel, new URL(target as string).searchParams.toString()];
        }) ?? [],
      ),
    };
  };

  it('links first, prev, next and last, keeping the other parameters', () => {
    expect(links("limit=2&offset=2&filter=givenName%3D'Ana'", 5)).toEqual({
      total: '5',
      links: {
        first: 'filter=givenName%3D%27Ana%27&limit=2&offset=0',
        prev: 'filter=givenName%3D%27Ana%27&limit=2&offset=0',
        next: 'filter=givenName%3D%27Ana%27&limit=2&offset=4',
        last: 'filter=givenName%3D%27Ana%27&limit=2&offset=4',
      },
    });
  });

  it('has no prev on the first page and no next on the last', () => {
    expect(Object.keys(links('limit=10', 5).links)).toEqual(['first', 'last']);
    expect(Object.keys(links('limit=10', 0).links)).toEqual(['first', 'last']);
  });

  it('gives a walk that goes on a next link from where it ended, and no total or last link', () => {
    const qs = "limit=2&offset=2&filter=dateLastModified>'2026-01-01T00:00:00Z'";
    const headers = pagingHeaders(url, new QueryParams(qs), parse(qs), undefined, '2026-01-05T00:00:00Z#x');
    expect(headers['x-total-count']).toBeUndefined();
    const rels = headers.link?.split(', ').map((l) => /rel="(\w+)"/.exec(l)?.[1]);
    expect(rels).toEqual(['first', 'prev', 'next']);
    expect(headers.link).toContain('offset=4&after=2026-01-05T00%3A00%3A00Z%23x>; rel="next"');
  });
});
