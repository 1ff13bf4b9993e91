// The OneRoster 1.2 Gradebook reads: categories and line items, as the rostering collections are read (paged
// in sourcedId order, walked for a filter or a delta, read whole only to sort by another field, a group
// bounded like theirs). A category holds no person's data and every school shares it, so a client
// registered with schools reads them all (rosterReader); it reads the line items of its schools' classes.
// A line item is at its class's school, read by the page's class ids.
import type { ApiRequest, ApiResponse } from '../exchange';
import type { Category, LineItem } from '../schemas/records';
import { inKeyOrder, walks } from './collection-query';
import type { OneRosterLineItem } from './objects';
import type { RosterReader, WalkEntry } from './roster-reader';
import {
  atClassSchools,
  collectionResponse,
  deletionsFor,
  keyedResponse,
  makerFor,
  objectQuery,
  pathId,
  singleObject,
  unknownObject,
  walkOf,
  walkResponse,
  withDeleted,
} from './rostering';
import { walkPage } from './walk';

/** Categories name no organisation. */
const maker = (request: ApiRequest) => makerFor(request, request.config.tenantId);

/** GET /categories. */
export async function listCategories(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'categories');
  const make = maker(request);
  if (inKeyOrder(query)) {
    const page = await reader.page('categories', query);
    return keyedResponse(
      request,
      'categories',
      page.records.map((c) => make.category(c)),
      query,
      page,
    );
  }
  if (walks(query)) {
    const walked = await walkPage(walkOf(reader, query, 'categories'), query, async (batch) =>
      batch.map((entry) => ({
        position: entry.position,
        object:
          entry.kind === 'changed'
            ? make.category(entry.record as Category)
            : make.deletedCategory(entry.deletion.id, entry.deletion.deleted_at),
      })),
    );
    return walkResponse(request, 'categories', query, walked);
  }
  const deleted = (await deletionsFor(reader, 'categories', query)).map((d) =>
    make.deletedCategory(d.id, d.deleted_at),
  );
  return collectionResponse(
    request,
    'categories',
    withDeleted(
      (await reader.all('categories')).map((c) => make.category(c)),
      deleted,
    ),
    query,
  );
}

/** GET /categories/{sourcedId}. */
export async function getCategory(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'categories');
  const id = pathId(request, 'category');
  const category = (await reader.get('categories', id))?.record;
  if (!category) throw unknownObject('category', id);
  return respond('category', maker(request).category(category));
}

/** The line items of some walk entries or records as objects, each at its class's school (atClassSchools). */
function lineItemObjects(request: ApiRequest, reader: RosterReader, entries: readonly WalkEntry[]) {
  const make = maker(request);
  return atClassSchools<'line_items', OneRosterLineItem>(reader, entries, {
    changed: (item, school) => make.lineItem(item, school),
    deleted: ({ id, deleted_at, kept }, school) => make.deletedLineItem(id, deleted_at, kept, school),
  });
}

/** Line item records as walk entries at their ids, to be made into objects alike. */
const asEntries = (items: readonly LineItem[]): WalkEntry[] =>
  items.map((record) => ({ group: 'line_items', position: record.line_item_id, kind: 'changed', record }));

/** GET /lineItems. */
export async function listLineItems(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'lineItems');
  if (inKeyOrder(query)) {
    const page = await reader.page('line_items', query);
    const objects = await lineItemObjects(request, reader, asEntries(page.records));
    return keyedResponse(
      request,
      'lineItems',
      objects.map((o) => o.object),
      query,
      page,
    );
  }
  if (walks(query)) {
    const walked = await walkPage(walkOf(reader, query, 'line_items'), query, (batch) =>
      lineItemObjects(request, reader, batch),
    );
    return walkResponse(request, 'lineItems', query, walked);
  }
  const deleted = (await deletionsFor(reader, 'line_items', query)).map(
    (deletion): WalkEntry => ({ group: 'line_items', position: deletion.id, kind: 'deleted', deletion }),
  );
  const [present, gone] = await Promise.all([
    lineItemObjects(request, reader, asEntries(await reader.all('line_items'))),
    lineItemObjects(request, reader, deleted),
  ]);
  return collectionResponse(
    request,
    'lineItems',
    withDeleted(
      present.map((o) => o.object),
      gone.map((o) => o.object),
    ),
    query,
  );
}

/** GET /lineItems/{sourcedId}. */
export async function getLineItem(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'lineItems');
  const id = pathId(request, 'lineItem');
  const item = (await reader.get('line_items', id))?.record;
  const [object] = item ? await lineItemObjects(request, reader, asEntries([item])) : [];
  if (!object) throw unknownObject('lineItem', id);
  return respond('lineItem', object.object);
}

/**
 * GET /classes/{classSourcedId}/lineItems: a class's line items, read whole (its range of the listing, a
 * few hundred at most) and paged, filtered and sorted here, with its deleted ones for a delta.
 */
export async function listLineItemsOfClass(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'lineItems');
  const classId = pathId(request, 'class');
  const cls = (await reader.get('classes', classId))?.record;
  if (!cls) throw unknownObject('class', classId);
  const [items, deletions] = await Promise.all([
    reader.lineItemIdsOfClass(classId).then((ids) => reader.getMany('line_items', ids)),
    deletionsFor(reader, 'line_items', query),
  ]);
  const make = maker(request);
  const deleted = deletions
    .filter(({ kept }) => kept.class_id === classId)
    .map((d) => make.deletedLineItem(d.id, d.deleted_at, d.kept, cls.school_id));
  return collectionResponse(
    request,
    'lineItems',
    withDeleted(
      [...items.values()].map((item) => make.lineItem(item, cls.school_id)),
      deleted,
    ),
    query,
  );
}
