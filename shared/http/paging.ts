// List paging (contract section 4): parsing `page`, `items_per_page` and `cursor`, and building the
// envelope. The envelope is assembled from records serialised one at a time, so a page stops before
// its body could exceed what Lambda can return, whatever the records hold.
import { BadRequestError, type InvalidParam } from './errors';
import type { QueryParams } from './request';

export const DEFAULT_ITEMS_PER_PAGE = 50;
export const MAX_ITEMS_PER_PAGE = 500;
export const MAX_PAGE = 1_000_000;
/** Lambda returns at most 6 MB; a page's records stop at this many bytes. */
export const PAGE_BODY_BUDGET_BYTES = 5 * 1024 * 1024;

export interface PagingParams {
  page: number;
  itemsPerPage: number;
  cursor: string | undefined;
}

function wholeNumber(
  query: QueryParams,
  name: string,
  min: number,
  max: number,
  fallback: number,
  bad: InvalidParam[],
) {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  const value = /^[0-9]{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  bad.push({ name, in: 'query', reason: `must be a whole number from ${min} to ${max}` });
  return fallback;
}

export function parsePaging(query: QueryParams): PagingParams {
  const bad: InvalidParam[] = [];
  const page = wholeNumber(query, 'page', 1, MAX_PAGE, 1, bad);
  const itemsPerPage = wholeNumber(
    query,
    'items_per_page',
    1,
    MAX_ITEMS_PER_PAGE,
    DEFAULT_ITEMS_PER_PAGE,
    bad,
  );
  const cursor = query.get('cursor');
  if (cursor !== undefined && query.get('page') !== undefined) {
    bad.push({
      name: 'page',
      in: 'query',
      reason: 'a cursor already says which page it opens; send one or the other',
    });
  }
  if (bad.length > 0) throw new BadRequestError('The paging parameters are not valid.', bad);
  return { page, itemsPerPage, cursor };
}

/** Records serialised one at a time, up to the byte budget: the JSON array's contents and how many fit. */
export function serialisePage(
  values: unknown[],
  budgetBytes = PAGE_BODY_BUDGET_BYTES,
): { items: string; kept: number } {
  const parts: string[] = [];
  let bytes = 0;
  for (const value of values) {
    const json = JSON.stringify(value);
    bytes += Buffer.byteLength(json) + 1;
    if (bytes > budgetBytes && parts.length > 0) break;
    parts.push(json);
  }
  return { items: parts.join(','), kept: parts.length };
}

/** `{"<key>":[<items>], ...fields}` without parsing the items again. */
export function envelope(key: string, items: string, fields: Record<string, unknown>): string {
  return `{${JSON.stringify(key)}:[${items}],${JSON.stringify(fields).slice(1)}`;
}

export interface ListBodyInput {
  /** The envelope's key: the group's name. */
  key: string;
  /** The cursor that opens the next page after the record with this id. */
  cursorAfter: (after: string) => string;
  idField: string;
  records: Record<string, unknown>[];
  hasMore: boolean;
  /** Where the read stopped, when it stopped short of a full page (RecordPage.readTo). */
  readTo?: string;
  page: number;
  itemsPerPage: number;
  /** Left out where counting would read the whole group (a list filtered by `ative` alone). */
  totalItems: number | undefined;
  budgetBytes?: number;
}

/** The list envelope as JSON text, with `next_cursor` after the last record that fits. */
export function listBody(input: ListBodyInput): string {
  const { items, kept } = serialisePage(input.records, input.budgetBytes);
  const after =
    kept === input.records.length && input.readTo !== undefined
      ? input.readTo
      : input.records[kept - 1]?.[input.idField];
  const more = input.hasMore || kept < input.records.length;
  const nextCursor = more && typeof after === 'string' ? input.cursorAfter(after) : undefined;
  return envelope(input.key, items, {
    page: input.page,
    items_per_page: input.itemsPerPage,
    ...(input.totalItems === undefined
      ? {}
      : { total_items: input.totalItems, total_pages: Math.ceil(input.totalItems / input.itemsPerPage) }),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  });
}
