// The OneRoster 1.2 Gradebook reads: categories, as the rostering collections are read (paged in sourcedId
// order, walked for a filter or a delta, read whole only to sort by another field, a group bounded like
// theirs). A category holds no person's data and every school shares it, so a client registered with
// schools reads them all (rosterReader).
import type { ApiRequest, ApiResponse } from '../exchange';
import type { Category } from '../schemas/records';
import { inKeyOrder, walks } from './collection-query';
import type { RosterReader } from './roster-reader';
import {
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
