// The OneRoster 1.2 Gradebook reads: categories, score scales, line items and results, as the rostering
// collections are read (paged in sourcedId order, walked for a filter or a delta, read whole only to sort
// by another field, a group bounded like theirs). A category or score scale holds no person's data and
// every school shares it, so a client registered with schools reads them all (rosterReader); it reads the
// line items and results of its schools' classes. The binding's score scales are classes' own (the
// tenant's, which name no class, are not served): read whole, or a class's from its listing. A line item
// is at its class's school, read by the page's class ids; a result names its student by their user, read
// by the page's student ids. The collections nested under a class read the class's range of a listing
// whole (its line items, its results: its students times its line items, its own score scales).

import { idsOfRole } from '../auth/reach';
import type { Deletion } from '../data/pages';
import type { ApiRequest, ApiResponse } from '../exchange';
import type { Category, Entity, GroupRecords, LineItem, ScoreScale } from '../schemas/records';
import { type CollectionQuery, inKeyOrder, walks } from './collection-query';
import type { ClassScale, OneRosterLineItem, OneRosterResult } from './objects';
import { pathId, unknownObject } from './path-ids';
import { idOf, type RosterReader, type WalkEntry } from './roster-reader';
import {
  atClassSchools,
  collectionResponse,
  deletionsFor,
  keyedResponse,
  makerFor,
  objectQuery,
  schoolOf,
  singleObject,
  walkOf,
  walkResponse,
  withDeleted,
} from './rostering';
import { type Placed, walkPage } from './walk';

/** Categories name no organisation. */
export const maker = (request: ApiRequest) => makerFor(request, request.config.tenantId);

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

/** The scales among these that are a class's own, the binding's score scales (the tenant's name no class). */
const ofClasses = (scales: Iterable<ScoreScale>) =>
  [...scales].filter((s): s is ClassScale => typeof s.class_id === 'string');

/** The ids among these of the scales that are a class's own, read by id (every school shares them). */
export async function classScaleIds(
  reader: RosterReader,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    ofClasses((await reader.scoreScales([...new Set(ids)])).values()).map((s) => s.score_scale_id),
  );
}

/**
 * The line items of some walk entries or records as objects, each at its class's school (atClassSchools)
 * and on its score scale where that is a class's.
 */
async function lineItemObjects(request: ApiRequest, reader: RosterReader, entries: readonly WalkEntry[]) {
  const make = maker(request);
  const scales = await classScaleIds(
    reader,
    entries.flatMap((e) => (e.kind === 'changed' ? ((e.record as LineItem).score_scale_id ?? []) : [])),
  );
  return atClassSchools<'line_items', OneRosterLineItem>(reader, entries, {
    changed: (item, school) => make.lineItem(item, school, scales.has(item.score_scale_id ?? '')),
    deleted: ({ id, deleted_at, kept }, school) => make.deletedLineItem(id, deleted_at, kept, school),
  });
}

/**
 * A collection of the binding's score scales: the classes' own among `scales`, with those among
 * `deletions` for a delta, each kept where its class is one `inPath` takes (every one, by default).
 */
function scalesResponse(
  request: ApiRequest,
  query: CollectionQuery,
  scales: Iterable<ScoreScale>,
  deletions: readonly Deletion<'score_scales'>[],
  inPath: (classId: string) => boolean = () => true,
): Promise<ApiResponse> {
  const make = maker(request);
  return collectionResponse(
    request,
    'scoreScales',
    withDeleted(
      ofClasses(scales)
        .filter((s) => inPath(s.class_id))
        .map((s) => make.scoreScale(s)),
      deletions.flatMap((d) =>
        d.kept.class_id && inPath(d.kept.class_id)
          ? [make.deletedScoreScale(d.id, d.deleted_at, d.kept)]
          : [],
      ),
    ),
    query,
  );
}

/**
 * GET /scoreScales: every class's own scales, read whole (a class has a few at most; the tenant's scales
 * are not the binding's) and paged, filtered and sorted here, with the deleted ones for a delta.
 */
export async function listScoreScales(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'scoreScales');
  const [scales, deletions] = await Promise.all([
    reader.all('score_scales'),
    deletionsFor(reader, 'score_scales', query),
  ]);
  return scalesResponse(request, query, scales, deletions);
}

/** GET /scoreScales/{sourcedId}: a class's own scale; the tenant's are not there. */
export async function getScoreScale(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'scoreScales');
  const id = pathId(request, 'scoreScale');
  const [scale] = ofClasses([(await reader.get('score_scales', id))?.record ?? []].flat());
  if (!scale) throw unknownObject('scoreScale', id);
  return respond('scoreScale', maker(request).scoreScale(scale));
}

/**
 * GET /classes/{classSourcedId}/scoreScales: a class's own scales, its range of the scales' listing, paged,
 * filtered and sorted here. `reader` reads the class, within a client's schools; `shared` the scales and
 * their deletions, which every school shares.
 */
export async function listScoreScalesOfClass(
  request: ApiRequest,
  reader: RosterReader,
  shared: RosterReader,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'scoreScales');
  const classId = await namedClass(request, reader);
  const [scales, deletions] = await Promise.all([
    shared.scoreScaleIdsOfClass(classId).then((ids) => shared.scoreScales(ids)),
    deletionsFor(shared, 'score_scales', query),
  ]);
  return scalesResponse(request, query, scales.values(), deletions, (id) => id === classId);
}

/**
 * GET /schools/{schoolSourcedId}/scoreScales: the own scales of a school's classes: every class's scales,
 * read whole as /scoreScales, with those classes' schools by id. `reader` reads the school, within a
 * client's schools; `shared` the scales, their deletions and their classes' schools.
 */
export async function listScoreScalesOfSchool(
  request: ApiRequest,
  reader: RosterReader,
  shared: RosterReader,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'scoreScales');
  const schoolId = await schoolOf(request, reader);
  const [all, deletions] = await Promise.all([
    shared.all('score_scales'),
    deletionsFor(shared, 'score_scales', query),
  ]);
  const present = ofClasses(all);
  const schools = await shared.schoolsOfClasses([
    ...new Set([...present.map((s) => s.class_id), ...deletions.flatMap((d) => d.kept.class_id ?? [])]),
  ]);
  return scalesResponse(request, query, present, deletions, (id) => schools.get(id) === schoolId);
}

/** The groups whose objects are made a batch at a time, as walk entries. */
export type EntryGroup = 'line_items' | 'results' | 'assessment_line_items' | 'assessment_results';

/** Records of a group as walk entries at their ids, to be made into objects alike. */
const asEntries = <G extends EntryGroup>(group: G, records: Iterable<GroupRecords[G]>): WalkEntry[] =>
  [...records].map((record) => ({
    group,
    position: idOf(group, record),
    kind: 'changed',
    record,
  }));

/** Deletions of a group as walk entries at their ids. */
const deletedEntries = (group: EntryGroup, deletions: readonly Deletion[]): WalkEntry[] =>
  deletions.map((deletion) => ({ group, position: deletion.id, kind: 'deleted', deletion }));

/** Makes a batch of a group's walk entries into objects, each at its position. */
export type ObjectsOf<T> = (
  request: ApiRequest,
  reader: RosterReader,
  entries: readonly WalkEntry[],
) => Promise<Placed<T>[]>;

/**
 * GET /lineItems, /results, /assessmentLineItems and /assessmentResults: a page in sourcedId order, a walk
 * for a filter or a delta, or the group whole to sort by another field, its objects made a batch at a
 * time by `objectsOf`.
 */
export async function listObjects<T extends { sourcedId: string }>(
  request: ApiRequest,
  reader: RosterReader,
  group: EntryGroup,
  key: 'lineItems' | 'results' | 'assessmentLineItems' | 'assessmentResults',
  objectsOf: ObjectsOf<T>,
): Promise<ApiResponse> {
  const query = objectQuery(request, key);
  if (inKeyOrder(query)) {
    const page = await reader.page(group, query);
    const objects = await objectsOf(request, reader, asEntries(group, page.records));
    return keyedResponse(
      request,
      key,
      objects.map((o) => o.object),
      query,
      page,
    );
  }
  if (walks(query)) {
    const walked = await walkPage(walkOf(reader, query, group), query, (batch) =>
      objectsOf(request, reader, batch),
    );
    return walkResponse(request, key, query, walked);
  }
  const deleted = deletedEntries(group, await deletionsFor(reader, group, query));
  const [present, gone] = await Promise.all([
    objectsOf(request, reader, asEntries(group, await reader.all(group))),
    objectsOf(request, reader, deleted),
  ]);
  return collectionResponse(
    request,
    key,
    withDeleted(
      present.map((o) => o.object),
      gone.map((o) => o.object),
    ),
    query,
  );
}

/** GET /lineItems/{sourcedId}, /results/{sourcedId} and the assessments': one object, made as a page's are. */
export async function getObject<T extends { sourcedId: string }>(
  request: ApiRequest,
  reader: RosterReader,
  group: EntryGroup,
  [key, single]:
    | ['lineItems', 'lineItem']
    | ['results', 'result']
    | ['assessmentLineItems', 'assessmentLineItem']
    | ['assessmentResults', 'assessmentResult'],
  objectsOf: ObjectsOf<T>,
): Promise<ApiResponse> {
  const respond = singleObject(request, key);
  const id = pathId(request, single);
  const record = (await reader.get(group, id))?.record;
  const [object] = record ? await objectsOf(request, reader, asEntries(group, [record])) : [];
  if (!object) throw unknownObject(single, id);
  return respond(single, object.object);
}

/** GET /lineItems. */
export const listLineItems = (request: ApiRequest, reader: RosterReader) =>
  listObjects(request, reader, 'line_items', 'lineItems', lineItemObjects);

/** GET /lineItems/{sourcedId}. */
export const getLineItem = (request: ApiRequest, reader: RosterReader) =>
  getObject(request, reader, 'line_items', ['lineItems', 'lineItem'], lineItemObjects);

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
  const scales = await classScaleIds(
    reader,
    [...items.values()].flatMap((item) => item.score_scale_id ?? []),
  );
  return collectionResponse(
    request,
    'lineItems',
    withDeleted(
      [...items.values()].map((item) =>
        make.lineItem(item, cls.school_id, scales.has(item.score_scale_id ?? '')),
      ),
      deleted,
    ),
    query,
  );
}

/**
 * GET /classes/{classSourcedId}/categories: the categories of a class's line items, read from the class's
 * range of the line items' listing (a few hundred at most) and paged, filtered and sorted here. A category
 * its line items name is not deleted, so a delta read tells of none deleted. `categories` reads them, as
 * every school shares them; `reader` reads the class and its line items, within a client's schools.
 */
export async function listCategoriesOfClass(
  request: ApiRequest,
  reader: RosterReader,
  categories: RosterReader,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'categories');
  const classId = pathId(request, 'class');
  if (!(await reader.get('classes', classId))) throw unknownObject('class', classId);
  const items = await reader.getMany('line_items', await reader.lineItemIdsOfClass(classId));
  const named = await categories.getMany('categories', [
    ...new Set([...items.values()].map((i) => i.category_id)),
  ]);
  const make = maker(request);
  return collectionResponse(
    request,
    'categories',
    [...named.values()].map((c) => make.category(c)),
    query,
  );
}

/**
 * Walk entries of students' results (a line item's, an assessment's) as objects, each naming its student by
 * their user, the batch's users read at once: a result whose student has no user is left out, a deleted
 * one told of whether its user is still known or not.
 */
export async function ofStudentUsers<G extends 'results' | 'assessment_results', T>(
  reader: RosterReader,
  entries: readonly WalkEntry[],
  make: {
    changed: (record: GroupRecords[G], userId: string) => T;
    deleted: (deletion: Deletion<G>, userId: string | undefined) => T;
  },
): Promise<Placed<T>[]> {
  // Either group's deletions keep the student (tombstones.ts).
  const studentOf = (entry: WalkEntry) =>
    entry.kind === 'changed'
      ? (entry.record as GroupRecords[G]).student_id
      : (entry.deletion as Deletion<'results' | 'assessment_results'>).kept.student_id;
  const users = await reader.usersOfStudents([...new Set(entries.flatMap((e) => studentOf(e) ?? []))]);
  return entries.flatMap((entry): Placed<T>[] => {
    const user = users.get(studentOf(entry) ?? '');
    if (entry.kind === 'deleted') {
      return [{ position: entry.position, object: make.deleted(entry.deletion as Deletion<G>, user) }];
    }
    return user
      ? [{ position: entry.position, object: make.changed(entry.record as GroupRecords[G], user) }]
      : [];
  });
}

/** Results as objects, each naming its student by their user. */
function resultObjects(
  request: ApiRequest,
  reader: RosterReader,
  entries: readonly WalkEntry[],
): Promise<Placed<OneRosterResult>[]> {
  const make = maker(request);
  return ofStudentUsers<'results', OneRosterResult>(reader, entries, {
    changed: (result, user) => make.result(result, user),
    deleted: ({ id, deleted_at, kept }, user) => make.deletedResult(id, deleted_at, kept, user),
  });
}

/** GET /results. */
export const listResults = (request: ApiRequest, reader: RosterReader) =>
  listObjects(request, reader, 'results', 'results', resultObjects);

/** GET /results/{sourcedId}. */
export const getResult = (request: ApiRequest, reader: RosterReader) =>
  getObject(request, reader, 'results', ['results', 'result'], resultObjects);

/** Which of a class's results a nested collection serves: all, one student's, or one line item's. */
interface ResultsOfClass {
  studentIds?: readonly string[];
  lineItemId?: string;
}

/**
 * A class's results, or those a nested path narrows them to, read whole (their range of the results'
 * listing) and paged, filtered and sorted here, with those deleted for a delta.
 */
async function resultsOfClass(
  request: ApiRequest,
  reader: RosterReader,
  classId: string,
  { studentIds, lineItemId }: ResultsOfClass,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'results');
  const [entries, deletions] = await Promise.all([
    reader.resultsOfClass(classId, studentIds),
    deletionsFor(reader, 'results', query),
  ]);
  const ids = entries.filter((e) => lineItemId === undefined || e.last === lineItemId);
  const results = await reader.getMany(
    'results',
    ids.map((e) => e.recordId),
  );
  const deleted = deletedEntries(
    'results',
    deletions.filter(
      ({ kept }) =>
        kept.class_id === classId &&
        (studentIds === undefined || studentIds.includes(kept.student_id ?? '')) &&
        (lineItemId === undefined || kept.line_item_id === lineItemId),
    ),
  );
  const [present, gone] = await Promise.all([
    resultObjects(request, reader, asEntries('results', results.values())),
    resultObjects(request, reader, deleted),
  ]);
  return collectionResponse(
    request,
    'results',
    withDeleted(
      present.map((o) => o.object),
      gone.map((o) => o.object),
    ),
    query,
  );
}

/** The class a nested path names, which must be there for the client. */
async function namedClass(request: ApiRequest, reader: RosterReader): Promise<string> {
  const classId = pathId(request, 'class');
  if (!(await reader.get('classes', classId))) throw unknownObject('class', classId);
  return classId;
}

/** GET /classes/{classSourcedId}/results. */
export async function listResultsOfClass(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  return resultsOfClass(request, reader, await namedClass(request, reader), {});
}

/** GET /classes/{classSourcedId}/students/{studentSourcedId}/results: one student's (a user's) results in a class. */
export async function listResultsOfStudentInClass(
  request: ApiRequest,
  reader: RosterReader,
): Promise<ApiResponse> {
  const classId = await namedClass(request, reader);
  const userId = pathId(request, 'student', 'studentSourcedId');
  const user = (await reader.get('entities', userId))?.record as Entity | undefined;
  const studentIds = user ? idsOfRole(user, 'student') : [];
  if (studentIds.length === 0) throw unknownObject('student', userId);
  return resultsOfClass(request, reader, classId, { studentIds });
}

/** GET /classes/{classSourcedId}/lineItems/{lineItemSourcedId}/results: the results for one line item of a class. */
export async function listResultsOfLineItemInClass(
  request: ApiRequest,
  reader: RosterReader,
): Promise<ApiResponse> {
  const classId = await namedClass(request, reader);
  const lineItemId = pathId(request, 'lineItem', 'lineItemSourcedId');
  const item = (await reader.get('line_items', lineItemId))?.record;
  if (item?.class_id !== classId) throw unknownObject('lineItem', lineItemId);
  return resultsOfClass(request, reader, classId, { lineItemId });
}
