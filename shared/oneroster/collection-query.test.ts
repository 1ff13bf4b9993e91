// Paging, sorting and field selection of OneRoster collections (Rostering REST binding, section 3.4).
import { describe, expect, it } from 'vitest';
import { QueryParams } from '../http/request';
import {
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
});
