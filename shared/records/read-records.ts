// The read operations every record group shares: a page of the list (or of its changes since a time),
// one record by id, and the deletions since a time. Each serves what the caller's token may read
// (shared/auth/reach.ts): a whole group from its partition, or a person's few records by id.
import { subjectOf } from '../audit/audit-event';
import { canRead, readScope } from '../auth/reach';
import { hiddenRecordFields } from '../clients/profiles';
import { type CursorIssuer, decodeCursor, encodeCursor, type WindowCursor } from '../data/cursor';
import type { Deletion, PageQuery, RecordPage, TimedPage } from '../data/pages';
import { pageOfIds } from '../data/pages-of-ids';
import { inScope, type ReadScope } from '../data/read-scope';
import { etag } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError, NoLongerKeptError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';
import { parseInstant } from '../domain/instants';
import type { ApiRequest, ApiResponse } from '../exchange';
import { envelope, listBody, parsePaging, serialisePage } from '../http/paging';
import { notModified } from '../http/preconditions';
import { header } from '../http/request';
import type { GroupRecords } from '../schemas/records';
import { DELETION_RETENTION_DAYS } from './deletion-retention';
import { type ListFilters, parseFields, parseFilters, passes, select } from './list-filters';
import { missingRecord, notFound } from './missing-record';
import { recordId } from './record-id';
import { readerView } from './record-view';
import { schoolDeletions } from './school-deletions';

export async function listRecords(
  group: RecordGroup,
  request: ApiRequest,
  records: RecordRepository,
): Promise<ApiResponse> {
  const { query, config } = request;
  const { page, itemsPerPage, cursor } = parsePaging(query);
  const decoded =
    cursor === undefined
      ? undefined
      : decodeCursor<'list' | 'changes'>(cursor, config, group, ['list', 'changes']);
  const updatedSince = query.get('updated_since');
  const filters = parseFilters(group, query);
  refuseHiddenFilters(request, group, filters);
  const fields = parseFields(group, query);
  // A changes cursor continues the changes feed on its own, as a list cursor continues the list.
  if (updatedSince !== undefined || decoded?.kind === 'changes') {
    if (filters) {
      throw new InvalidInputError('The changes feed is not filtered.', [
        { name: 'updated_since', in: 'query', reason: 'not taken with processnumber, email or ative' },
      ]);
    }
    return listChanges(group, request, records, updatedSince, fields);
  }
  const position = decoded?.kind === 'list' ? decoded : undefined;
  const pageQuery = {
    itemsPerPage,
    after: position?.after,
    skip: position ? undefined : (page - 1) * itemsPerPage,
  };
  const scope = await readScope(request.auth, group, records);
  // Unfiltered, the count is that of all the caller may read, which tells of nobody in particular.
  const { totalItems, shaped, ...result } = filters
    ? await filteredPage(group, scope, records, filters, pageQuery, query)
    : { ...(await records.listWithin(group, scope, pageQuery)), shaped: [] };
  const view = readerView(request.auth, group);
  const pageNumber = position?.page ?? page;
  return {
    audit: subjectOf(idFields[group], [...result.items, ...shaped]),
    rawBody: listBody({
      key: group,
      cursorAfter: (after) => encodeCursor(config, group, { kind: 'list', page: pageNumber + 1, after }),
      idField: idFields[group],
      records: result.items.map((record) => select(view(record), fields)),
      hasMore: result.hasMore,
      readTo: result.readTo,
      page: pageNumber,
      itemsPerPage,
      totalItems,
    }),
  };
}

/** A filter on a field the client's profile keeps from it would tell of that field: refused. */
function refuseHiddenFilters(request: ApiRequest, group: RecordGroup, filters: ListFilters | undefined) {
  const hidden = hiddenRecordFields(request.auth?.profile, group);
  const refused = Object.keys(filters ?? {}).filter((name) => hidden.includes(name));
  if (refused.length > 0) {
    throw new InvalidInputError("The list is filtered by fields this client's profile does not read.", [
      ...refused.map((name) => ({ name, in: 'query' as const, reason: "not read by this client's profile" })),
    ]);
  }
}

/**
 * A page of the records that pass the filters. A processnumber or an e-mail address is looked up by
 * key, and the few records found are read by id and paged here; `ative` alone is a filtered Query of
 * the group, which cannot jump to a page nor count without reading the whole group. `shaped` are the
 * records beyond the page that the answer tells of (its count, whether it is empty), for the audit event:
 * every record a lookup found that the caller may read, whether it passes `ative` or not; filtered by
 * `ative` alone, the records that pass (those read past the page, for the whole group).
 */
async function filteredPage<G extends RecordGroup>(
  group: G,
  scope: ReadScope,
  records: RecordRepository,
  filters: ListFilters,
  pageQuery: PageQuery,
  query: ApiRequest['query'],
): Promise<RecordPage<GroupRecords[G]> & { totalItems: number | undefined; shaped: GroupRecords[G][] }> {
  const { processnumber, email } = filters;
  let candidates: string[];
  if (processnumber !== undefined) {
    const id = await records.idByProcessnumber(group, processnumber);
    candidates = id === undefined ? [] : [id];
  } else if (email !== undefined) {
    candidates = await records.idsByEmail(group, email);
  } else if (scope.all) {
    if (query.get('page') !== undefined && query.get('page') !== '1') {
      throw new InvalidInputError('A list filtered by ative alone is walked with cursors.', [
        { name: 'page', in: 'query', reason: 'not taken with ative alone; follow next_cursor' },
      ]);
    }
    const { beyond = [], ...page } = await records.listPage(group, pageQuery, filters.ative);
    return { ...page, totalItems: undefined, shaped: beyond };
  } else {
    candidates = scope.ids;
  }
  const readable = candidates.filter((id) => inScope(scope, id));
  const found = await records.getMany(group, readable);
  const matching = readable.filter((id) => {
    const record = found.get(id);
    return record !== undefined && passes(record, filters);
  });
  const page = pageOfIds(matching, pageQuery);
  const lookedUp = processnumber !== undefined || email !== undefined;
  return {
    items: page.ids.flatMap((id) => found.get(id) ?? []),
    hasMore: page.hasMore,
    totalItems: matching.length,
    shaped: (lookedUp ? readable : matching).flatMap((id) => found.get(id) ?? []),
  };
}

export async function getRecord(
  group: RecordGroup,
  request: ApiRequest,
  records: RecordRepository,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const fields = parseFields(group, request.query);
  // Outside the caller's reach a record is not there for them: the same 404 as an id nobody has.
  if (!(await canRead(request.auth, group, id, records))) throw notFound(group, id);
  const stored = await records.get(group, id);
  if (!stored) return missingRecord(records, group, id);
  const tag = etag(stored.version);
  const audit = subjectOf(idFields[group], [stored.record]);
  if (notModified(header(request.event, 'if-none-match'), stored.version)) {
    return { status: 304, headers: { etag: tag }, audit };
  }
  return {
    headers: { etag: tag },
    body: select(readerView(request.auth, group)(stored.record), fields),
    audit,
  };
}

function parseTime(name: string, value: string): string {
  const at = parseInstant(value);
  if (at === undefined) {
    throw new InvalidInputError(`${name} must be an ISO 8601 timestamp.`, [
      {
        name,
        in: 'query',
        reason: 'not an ISO 8601 timestamp with a time zone, such as 2026-09-01T08:00:00Z',
      },
    ]);
  }
  return at;
}

/** The window a feed serves: from the client's time, or the cursor's, up to the watermark. */
function window(
  kind: WindowCursor['kind'],
  group: RecordGroup,
  { query, config }: ApiRequest,
  sinceName: string,
  sinceValue: string | undefined,
) {
  const { itemsPerPage, cursor } = parsePaging(query);
  if (query.get('page') !== undefined) {
    throw new InvalidInputError(`${sinceName} pages are followed with cursors, not page numbers.`, [
      { name: 'page', in: 'query', reason: `not taken with ${sinceName}; follow next_cursor` },
    ]);
  }
  if (cursor !== undefined) return { itemsPerPage, ...decodeCursor(cursor, config, group, [kind]) };
  const since = sinceValue === undefined ? new Date(0).toISOString() : parseTime(sinceName, sinceValue);
  const until = new Date(Math.max(Date.parse(since), Date.now() - config.syncLagMs)).toISOString();
  return { itemsPerPage, since, until, after: undefined };
}

function feedBody<T>(
  key: string,
  page: TimedPage<T>,
  feed: {
    kind: WindowCursor['kind'];
    group: RecordGroup;
    issuer: CursorIssuer;
    since: string;
    until: string;
    itemsPerPage: number;
  },
  sinceName: string,
): string {
  const { items, kept } = serialisePage(page.items.map((i) => i.value));
  const last = page.items[kept - 1]?.position;
  const more = page.hasMore || kept < page.items.length;
  const nextCursor =
    more && last
      ? encodeCursor(feed.issuer, feed.group, {
          kind: feed.kind,
          since: feed.since,
          until: feed.until,
          after: last,
        })
      : undefined;
  return envelope(key, items, {
    [sinceName]: feed.since,
    sync_until: feed.until,
    items_per_page: feed.itemsPerPage,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  });
}

async function listChanges(
  group: RecordGroup,
  request: ApiRequest,
  records: RecordRepository,
  updatedSince: string | undefined,
  fields: readonly string[] | undefined,
): Promise<ApiResponse> {
  const w = window('changes', group, request, 'updated_since', updatedSince);
  const changed = await records.changesWithin(group, await readScope(request.auth, group, records), w);
  const view = readerView(request.auth, group);
  const page = { ...changed, items: changed.items.map((item) => ({ ...item, value: view(item.value) })) };
  const feed = { kind: 'changes' as const, group, issuer: request.config, ...w };
  const selected = { ...page, items: page.items.map((i) => ({ ...i, value: select(i.value, fields) })) };
  return {
    audit: subjectOf(
      idFields[group],
      changed.items.map((item) => item.value),
    ),
    rawBody: feedBody(group, selected, feed, 'updated_since'),
  };
}

export async function listDeleted(
  group: RecordGroup,
  request: ApiRequest,
  records: RecordRepository,
): Promise<ApiResponse> {
  const w = window('deleted', group, request, 'since', request.query.get('since'));
  const retainedFrom = new Date(Date.now() - DELETION_RETENTION_DAYS * 86_400_000).toISOString();
  if (request.query.get('since') !== undefined && w.since < retainedFrom) {
    throw new NoLongerKeptError(
      `Deletions are kept for ${DELETION_RETENTION_DAYS} days; since is older. List the group again from the start.`,
    );
  }
  const scope = await readScope(request.auth, group, records);
  const page = scope.all
    ? await records.deletionsPage(group, w)
    : scope.schools
      ? await schoolDeletions(group, scope.schools, records, w)
      : deletionsWithin(scope, group, request, w.since);
  const idField = idFields[group];
  const deletions = {
    ...page,
    items: page.items.map(({ value, position }) => ({
      value: { [idField]: value.id, deleted_at: value.deleted_at },
      position,
    })),
  };
  const feed = { kind: 'deleted' as const, group, issuer: request.config, ...w };
  return {
    audit: { recordIds: page.items.map((item) => item.value.id), entityIds: [] },
    rawBody: feedBody('deleted', deletions, feed, 'since'),
  };
}

/**
 * The deletions owed to a reader of only some ids: none, unless what they may read changed since `since`.
 * Nothing they may read can be deleted while they may (a record leaves its person's entity, and a student
 * its tutors, in the transaction that deletes it or before), and whatever takes an id out of their reach
 * changes a record the set is read from. So if the set has not changed since `since`, nothing they could
 * read then has gone. If it has, which ids went is not kept: they list the group again, as they do when
 * `since` is older than deletions are kept. A first load (no `since`) has nothing to delete.
 */
function deletionsWithin(
  scope: ReadScope & { all: false },
  group: RecordGroup,
  { query }: ApiRequest,
  since: string,
): TimedPage<Deletion> {
  const firstLoad = query.get('since') === undefined && query.get('cursor') === undefined;
  if (!firstLoad && scope.changedAt !== undefined && scope.changedAt > since) {
    throw new NoLongerKeptError(
      `What this token may read of ${group} changed after ${since}, and which records left it is not kept. List the group again from the start.`,
    );
  }
  return { items: [], hasMore: false };
}
