// The query parameters of a OneRoster collection (Rostering REST binding, section 3.4): `limit` and
// `offset` paging with the X-Total-Count and Link headers, `sort` and `orderBy`, `filter`, and `fields`.
// Pure: the handlers read the records, this module decides which of them a response carries and how.

import { isUuid } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';
import { quote } from '../http/quote';
import type { QueryParams } from '../http/request';
import { type Filter, filterFields, holds, matches, parseFilter, valuesAt } from './filter';
import { OneRosterError } from './status-info';

export const DEFAULT_LIMIT = 100;
/** OneRoster objects are small (under 2 kB each), so a page of the largest size stays far under 6 MB. */
export const MAX_LIMIT = 1000;

/**
 * The binding's parameters, and `after`: the sourcedId a page of a collection read in sourcedId order
 * starts after, which the service puts in the `next` link so that a walk costs one page per page.
 */
export const collectionParameters = [
  'limit',
  'offset',
  'sort',
  'orderBy',
  'filter',
  'fields',
  'after',
] as const;

export interface CollectionQuery {
  limit: number;
  offset: number;
  sort: string | undefined;
  orderBy: 'asc' | 'desc';
  filter: Filter | undefined;
  fields: string[] | undefined;
  /**
   * Where the page starts, in place of skipping `offset` objects: after this sourcedId (lower case) in
   * sourcedId order, or after this position (`<dateLastModified>#<sourcedId>`) in change order.
   */
  after: string | undefined;
}

/**
 * Whether the objects the query selects are every object of the collection in sourcedId order: then
 * a page is read from a key range, by itself, instead of being cut from the whole collection.
 */
export const inKeyOrder = ({ filter, sort, orderBy }: Pick<CollectionQuery, 'filter' | 'sort' | 'orderBy'>) =>
  filter === undefined && (sort === undefined || sort === 'sourcedId') && orderBy === 'asc';

/**
 * The window a filter's `dateLastModified>` (or `>=`) gives, when every object it selects changed after
 * it: then only what changed since is read, and the answer tells of what was deleted since too. Not with
 * OR, where the other predicate may select more. The filter has been read, so the value is a date-time.
 */
export function deltaWindow(filter: Filter | undefined): { since: string; inclusive: boolean } | undefined {
  if (!filter || (filter.logic === 'OR' && filter.predicates.length > 1)) return undefined;
  const bound = filter.predicates.find(
    (p) => p.field === 'dateLastModified' && (p.operator === '>' || p.operator === '>='),
  );
  return bound && { since: bound.value, inclusive: bound.operator === '>=' };
}

/**
 * Whether the query is a delta read in change order (`dateLastModified` ascending, then sourcedId): a
 * `dateLastModified>` window, without `sort` or sorted by `dateLastModified` ascending. The large
 * collections read such a page by walking what changed since, from `after` (a position) on.
 */
export const inChangeOrder = ({
  filter,
  sort,
  orderBy,
}: Pick<CollectionQuery, 'filter' | 'sort' | 'orderBy'>) =>
  deltaWindow(filter) !== undefined &&
  (sort === undefined || sort === 'dateLastModified') &&
  orderBy === 'asc';

/**
 * Whether the query is filtered but in sourcedId order, and not a delta: the large collections read such
 * a page by walking the collection from `after` (a sourcedId) on, the filter applied on the way.
 */
export const filteredByKey = ({
  filter,
  sort,
  orderBy,
}: Pick<CollectionQuery, 'filter' | 'sort' | 'orderBy'>) =>
  filter !== undefined &&
  deltaWindow(filter) === undefined &&
  (sort === undefined || sort === 'sourcedId') &&
  orderBy === 'asc';

/** Whether the large collections read the query's page by walking (walk.ts): a delta, or a filter in sourcedId order. */
export const walks = (query: Pick<CollectionQuery, 'filter' | 'sort' | 'orderBy'>) =>
  inChangeOrder(query) || filteredByKey(query);

/** A position in change order: the time an object changed (or was deleted) and its sourcedId. */
const position = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z)#([0-9a-fA-F-]{36})$/;

/**
 * `after`, checked: a sourcedId, continuing a walk in sourcedId order of an unfiltered collection, or a
 * position (`<dateLastModified>#<sourcedId>`), continuing a delta walk in change order.
 */
function parseAfter(query: QueryParams, order: Pick<CollectionQuery, 'filter' | 'sort' | 'orderBy'>) {
  const after = query.get('after');
  if (after === undefined) return undefined;
  if (inKeyOrder(order) || filteredByKey(order)) {
    if (isUuid(after)) return after.toLowerCase();
    throw new OneRosterError(
      400,
      'invaliddata',
      'after is the sourcedId a page starts after, as a next link gives it.',
    );
  }
  if (inChangeOrder(order)) {
    const [, at, id] = position.exec(after) ?? [];
    if (at !== undefined && id !== undefined && isUuid(id) && !Number.isNaN(Date.parse(at))) {
      return `${at}#${id.toLowerCase()}`;
    }
    throw new OneRosterError(
      400,
      'invaliddata',
      'after is the position a page of a delta starts after (<dateLastModified>#<sourcedId>), as a next link gives it.',
    );
  }
  throw new OneRosterError(
    400,
    'invaliddata',
    'after continues a collection in sourcedId order (without sort or orderBy other than by sourcedId ascending) or a dateLastModified> delta in change order (without sort other than by dateLastModified ascending).',
  );
}

function wholeNumber(query: QueryParams, name: string, min: number, fallback: number): number {
  const text = query.get(name);
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min)) {
    throw new OneRosterError(400, 'invaliddata', `${name} must be a whole number from ${min}.`);
  }
  return value;
}

/** The top-level field a dotted path starts with. */
const rootOf = (path: string) => path.split('.')[0] as string;

/**
 * The fields asked for: `fields=a,b`, or the parameter repeated (`fields=a&fields=b`, how the binding's
 * OpenAPI file sends an array). As the binding says (section 3.4), a blank name makes the request
 * invalid, and a name the objects lack selects every field.
 */
function parseFields(query: QueryParams, known: ReadonlySet<string>): string[] | undefined {
  const values = query.all('fields');
  if (values.length === 0) return undefined;
  const fields = values.flatMap((value) => value.split(',')).map((f) => f.trim());
  if (fields.some((f) => f === '')) {
    throw new OneRosterError(400, 'invalid_selection_field', 'fields names a blank field.');
  }
  return fields.every((f) => known.has(f)) ? fields : undefined;
}

/**
 * Reads and checks the parameters against the fields the collection's objects have. A `limit` above
 * MAX_LIMIT is served as MAX_LIMIT (the binding sets no maximum; the Link header carries the one used).
 */
export function parseCollectionQuery(query: QueryParams, knownFields: readonly string[]): CollectionQuery {
  const linked = pagingQuery(query).toString().length;
  if (linked > LIMITS.pagingQueryChars) {
    throw new OneRosterError(
      400,
      'invaliddata',
      `The query comes to ${linked} characters URL-encoded, which the Link header repeats; at most ${LIMITS.pagingQueryChars}.`,
    );
  }
  const known = new Set(knownFields);
  const limit = Math.min(wholeNumber(query, 'limit', 1, DEFAULT_LIMIT), MAX_LIMIT);
  const offset = wholeNumber(query, 'offset', 0, 0);
  const sort = query.get('sort');
  if (sort !== undefined && !known.has(rootOf(sort))) {
    throw new OneRosterError(
      400,
      'invalid_selection_field',
      `sort names ${quote(sort)}, which these objects lack.`,
    );
  }
  const orderBy = query.get('orderBy') ?? 'asc';
  if (orderBy !== 'asc' && orderBy !== 'desc') {
    throw new OneRosterError(400, 'invaliddata', 'orderBy is asc or desc.');
  }
  const filterText = query.get('filter');
  const filter = filterText === undefined ? undefined : parseFilter(filterText);
  for (const field of filter ? filterFields(filter) : []) {
    if (!known.has(rootOf(field))) {
      throw new OneRosterError(
        400,
        'invalid_filter_field',
        `The filter names ${quote(field)}, which these objects lack.`,
      );
    }
  }
  return {
    limit,
    offset,
    sort,
    orderBy,
    filter,
    fields: parseFields(query, known),
    after: parseAfter(query, { filter, sort, orderBy }),
  };
}

/** Only the fields asked for, in the object's own order. */
export function selectFields<T extends object>(object: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields) return object;
  return Object.fromEntries(Object.entries(object).filter(([name]) => fields.includes(name))) as Partial<T>;
}

const sortKey = (object: object, path: string) => {
  const first = valuesAt(object, path.split('.'))[0];
  return first === undefined || first === null ? '' : String(first);
};

/**
 * The objects the query selects, sorted, with how many there are before paging; whole, for the caller to
 * select fields of. Without `sort` they are in sourcedId order, or, for a delta read, in change order
 * (`dateLastModified`, then sourcedId). Ties keep sourcedId order, so a page boundary is the same on
 * every request. `selected` is every object the filter selects, in page order.
 */
export function selectPage<T extends { sourcedId: string }>(
  objects: readonly T[],
  query: CollectionQuery,
): { page: T[]; total: number; selected: T[] } {
  const { filter, orderBy, offset, limit } = query;
  const sort = query.sort ?? (inChangeOrder(query) ? 'dateLastModified' : 'sourcedId');
  const selected = filter ? objects.filter((o) => matches(o, filter)) : [...objects];
  const collator = new Intl.Collator('en', { sensitivity: 'variant' });
  const direction = orderBy === 'desc' ? -1 : 1;
  selected.sort(
    (a, b) =>
      direction * collator.compare(sortKey(a, sort), sortKey(b, sort)) ||
      (a.sourcedId < b.sourcedId ? -1 : a.sourcedId > b.sourcedId ? 1 : 0),
  );
  return {
    page: selected.slice(offset, offset + limit),
    total: selected.length,
    selected,
  };
}

/**
 * The objects a filtered answer tells of beyond its page, for its audit event (docs/privacy.md, "The
 * audit trail"): every object the filter selects, which the count and the page depend on, and, for two
 * predicates joined by AND, those the narrower predicate selects alone, since the answer says of each of
 * them whether it meets the other predicate too. So a filter that picks a person out with one predicate
 * (`sourcedId='…'`, an e-mail address) and asks about them with the other names them, whether it counts
 * them or not.
 */
export function toldOf<T>(objects: readonly T[], filter: Filter | undefined, selected: readonly T[]): T[] {
  if (!filter) return [];
  const [first, second] = filter.predicates;
  if (filter.logic === 'OR' || !second) return [...selected];
  const alone = [first, second]
    .map((predicate) => objects.filter((o) => holds(o, predicate)))
    .reduce((a, b) => (b.length < a.length ? b : a));
  return [...new Set([...selected, ...alone])];
}

/** What every link of a page carries of the request's query: all of it but the paging and the token. */
function pagingQuery(query: QueryParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of query.names()) {
    if (name === 'limit' || name === 'offset' || name === 'after' || name === 'access_token') continue;
    for (const value of query.all(name)) params.append(name, value);
  }
  return params;
}

/**
 * The paging headers: X-Total-Count, and a Link header (RFC 8288) with the first, prev, next and last
 * pages, each the request's own URL with only `offset` changed (and `limit` set). The next link also
 * carries `after` where the page was read by key or in change order (`nextAfter`, where it ended). A
 * delta walk that goes on past its page does not know its total: then there is no X-Total-Count and no
 * last link, and the next link is there while `nextAfter` is.
 */
export function pagingHeaders(
  url: string,
  query: QueryParams,
  { limit, offset }: Pick<CollectionQuery, 'limit' | 'offset'>,
  total: number | undefined,
  nextAfter?: string,
): Record<string, string> {
  const at = (start: number, after?: string) => {
    const params = pagingQuery(query);
    params.set('limit', String(limit));
    params.set('offset', String(start));
    if (after !== undefined) params.set('after', after);
    return `<${url}?${params.toString()}>`;
  };
  const links = [`${at(0)}; rel="first"`];
  if (total === undefined) {
    if (offset > 0) links.push(`${at(Math.max(0, offset - limit))}; rel="prev"`);
    if (nextAfter !== undefined) links.push(`${at(offset + limit, nextAfter)}; rel="next"`);
    return { link: links.join(', ') };
  }
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  if (offset > 0) links.push(`${at(Math.max(0, Math.min(offset, lastOffset + limit) - limit))}; rel="prev"`);
  if (offset + limit < total) links.push(`${at(offset + limit, nextAfter)}; rel="next"`);
  links.push(`${at(lastOffset)}; rel="last"`);
  return { 'x-total-count': String(total), link: links.join(', ') };
}
