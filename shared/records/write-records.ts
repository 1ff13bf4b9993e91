// The write operations every record group shares: create, replace, delete, and add an identification
// document. Bodies are validated against the group's insert request before anything is written.
import { subjectOf } from '../audit/audit-event';
import { etag, type StoredRecord } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { NoLongerKeptError, RecordNotFoundError, StateConflictError } from '../domain/errors';
import { type DocumentGroup, idFields, type RecordGroup } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import type { ApiRequest, ApiResponse } from '../exchange';
import { parseEntityTags } from '../http/preconditions';
import { header } from '../http/request';
import { validateBody } from '../http/validate';
import type { GroupRecords } from '../schemas/records';
import { documentInsertRequest, type InsertRequest, type InsertSchema } from '../schemas/requests';
import { type IdempotencyStore, idempotentPost, once } from './idempotency';
import { carriesMasked, refuseMasked, refuseMaskedDocument, restoreMasked } from './masked-values';
import { refuseChangeOutOfReach, refuseCreateOutOfReach } from './person-writes';
import { checkReadOnly, splitReadOnly } from './read-only-fields';
import { recordId } from './record-id';
import { hidesFields, readerView, refuseHidden, withHidden } from './record-view';
import type { RecordWriter } from './record-writer';
import { refuseChangeOutsideSchools, refuseCreateOutsideSchools } from './school-writes';
import type { Step } from './write-transaction';

let known: string[] | undefined;

/**
 * Every field name a client may send, to suggest the right one for a misspelt field. Gathered on the
 * first body, since it reads the document schema, which is built on first use (schemas/requests.ts).
 */
export function knownFields(): string[] {
  known ??= [
    ...new Set([
      ...Object.values(recordFields).flat(),
      ...Object.keys(documentInsertRequest().shape),
      'bank_accounts',
      'back_account_number',
      'country_name',
      'entity_bank_account_type',
      'address2',
      'zone_code',
      'postal_code',
      'contact_type_name',
    ]),
  ];
  return known;
}

const ifMatch = (request: ApiRequest) => parseEntityTags('if-match', header(request.event, 'if-match'));

const locationOf = (request: ApiRequest, group: RecordGroup, id: string) =>
  `${request.config.publicBaseUrl}/api/${group}/${id}`;

/**
 * A 201 with the whole record, its address and its ETag: the response an Idempotency-Key keeps, so that
 * whoever replays it is answered in their own view (`inView`), not in the first caller's.
 */
function created<G extends RecordGroup>(
  request: ApiRequest,
  group: G,
  { record, version }: StoredRecord<G>,
): ApiResponse {
  const id = (record as Record<string, unknown>)[idFields[group]] as string;
  return {
    status: 201,
    headers: { location: locationOf(request, group, id), etag: etag(version) },
    body: record,
    audit: subjectOf(idFields[group], [record]),
  };
}

/** A created record's response as this request's token may see it, first answer or replay alike. */
const inView = (request: ApiRequest, group: RecordGroup, response: ApiResponse): ApiResponse => ({
  ...response,
  body: readerView(request.auth, group)(response.body),
});

/** A processnumber clash names the record holding it, by id and by its address in `Location`. */
async function locatingClashes<T>(request: ApiRequest, group: RecordGroup, write: () => Promise<T>) {
  try {
    return await write();
  } catch (error) {
    if (error instanceof StateConflictError && error.holder)
      error.location = locationOf(request, group, error.holder.id);
    throw error;
  }
}

/**
 * A check a group's new records meet beyond every group's (a result's student is one its class enrolls,
 * class-students.ts), given by the handlers of that group's writes, so that no other bundle carries it.
 * It answers the conditions the write must still meet when it commits, so that what it found cannot
 * change between the check and the write.
 */
export type NewRecordCheck = (
  group: RecordGroup,
  input: object,
  records: RecordRepository,
) => Promise<Step[]>;

/**
 * Refuses a new record the caller may not make: outside its client's schools, out of its person's reach,
 * or `check`'s; answers `check`'s conditions.
 */
async function refuseNew(
  request: ApiRequest,
  group: RecordGroup,
  input: object,
  records: RecordRepository,
  check: NewRecordCheck | undefined,
): Promise<Step[]> {
  await refuseCreateOutsideSchools(request, group, input, records);
  await refuseCreateOutOfReach(request, group, input, records);
  return (await check?.(group, input, records)) ?? [];
}

/** Creates a record of the group from a body that its insert request (`schema`) validates. */
export async function createRecord<G extends RecordGroup>(
  group: G,
  schema: InsertSchema<G>,
  request: ApiRequest,
  writer: RecordWriter,
  idempotency: IdempotencyStore,
  check?: NewRecordCheck,
): Promise<ApiResponse> {
  refuseMasked(request.body);
  const input = validateBody(schema, request.body, knownFields()) as InsertRequest<G>;
  refuseHidden(request.auth, group, Object.keys(request.body as object));
  const conditions = await refuseNew(request, group, input, writer.records, check);
  const response = await once(idempotency, idempotentPost(group, request), (keep) =>
    locatingClashes(request, group, async () =>
      created(
        request,
        group,
        await writer.create(group, input, (record) => [
          ...(keep ? [keep(created(request, group, record))] : []),
          ...conditions,
        ]),
      ),
    ),
  );
  return inView(request, group, response);
}

/** Replaces a record of the group with a body that its insert request (`schema`) validates. */
export async function replaceRecord<G extends RecordGroup>(
  group: G,
  schema: InsertSchema<G>,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const condition = ifMatch(request);
  // A record as GET gave it is a valid replacement: its read-only fields are checked, not refused, and
  // its masked numbers are given back from the record (masked-values.ts), so that body is validated
  // once the record is read; any other body is validated before anything is read.
  const { input: body, readOnly } = splitReadOnly(group, request.body, id);
  refuseHidden(request.auth, group, body !== null && typeof body === 'object' ? Object.keys(body) : []);
  // A client whose profile keeps fields from it replaces the others: those stay as they are.
  const masked = carriesMasked(body) || hidesFields(request.auth, group);
  const input = masked ? undefined : (validateBody(schema, body, knownFields()) as InsertRequest<G>);
  await refuseChangeOutsideSchools(request, group, id, writer.records, body);
  await refuseChangeOutOfReach(request, group, id, writer.records);
  const { record, version } = await locatingClashes(request, group, () =>
    writer.replace(
      group,
      id,
      (current) => {
        checkReadOnly(readOnly, current);
        return (
          input ??
          (validateBody(
            schema,
            withHidden(request.auth, group, restoreMasked(body, current), current),
            knownFields(),
          ) as InsertRequest<G>)
        );
      },
      condition,
    ),
  );
  return {
    headers: { etag: etag(version) },
    body: readerView(request.auth, group)(record),
    audit: subjectOf(idFields[group], [record]),
  };
}

/** What a PUT under a chosen id validates: made from the record it replaces, or for a new one. */
export interface PutBodies<G extends RecordGroup> {
  replacing: (current: GroupRecords[G]) => unknown;
  making: () => unknown;
  /** What a new record meets beyond every group's (NewRecordCheck). */
  check?: NewRecordCheck;
}

/**
 * Makes a record of the group under the id a client chose, or replaces the record that has it: a PUT of
 * the OneRoster Gradebook binding. A replacement is made from the record as the write finds it (read again
 * when another write changed it first), so that what the body does not carry stays as it is. A record
 * another request made, or deleted, between the read and the write is replaced, or made, instead.
 */
/** How many times a PUT is tried while other requests make or delete its record between its read and its write. */
const PUT_ATTEMPTS = 8;

export async function putRecord<G extends RecordGroup>(
  group: G,
  id: string,
  schema: InsertSchema<G>,
  request: ApiRequest,
  writer: RecordWriter,
  bodies: PutBodies<G>,
): Promise<void> {
  const validated = (body: unknown) => validateBody(schema, body, knownFields()) as InsertRequest<G>;
  for (let attempt = 0; ; attempt++) {
    const current = await writer.records.get(group, id);
    try {
      if (current) {
        validated(bodies.replacing(current.record));
        await refuseChangeOutsideSchools(request, group, id, writer.records);
        await refuseChangeOutOfReach(request, group, id, writer.records);
        await locatingClashes(request, group, () =>
          writer.replace(group, id, (found) => validated(bodies.replacing(found))),
        );
        return;
      }
      const input = validated(await bodies.making());
      const conditions = await refuseNew(request, group, input, writer.records, bodies.check);
      await locatingClashes(request, group, () => writer.create(group, input, () => conditions, id));
      return;
    } catch (error) {
      const raced = current
        ? error instanceof NoLongerKeptError || error instanceof RecordNotFoundError
        : error instanceof StateConflictError &&
          (error.holder?.id === id || (await writer.records.get(group, id)) !== undefined);
      // Each try lost to a write that made or deleted the record meanwhile: as many as PUT_ATTEMPTS of those.
      if (attempt >= PUT_ATTEMPTS - 1 || !raced) throw error;
    }
  }
}

export const deleteRecord = (group: RecordGroup, request: ApiRequest, writer: RecordWriter) =>
  removeRecord(group, recordId(group, request), request, writer);

/** Deletes the group's record of this id, as DELETE does, whoever names it (a path's id or sourcedId). */
export async function removeRecord(
  group: RecordGroup,
  id: string,
  request: ApiRequest,
  writer: RecordWriter,
): Promise<ApiResponse> {
  await refuseChangeOutsideSchools(request, group, id, writer.records);
  await refuseChangeOutOfReach(request, group, id, writer.records);
  const removed = await writer.remove(group, id, ifMatch(request));
  return { status: 204, audit: subjectOf(idFields[group], [removed]) };
}

export async function addDocument(
  group: DocumentGroup,
  request: ApiRequest,
  writer: RecordWriter,
  idempotency: IdempotencyStore,
): Promise<ApiResponse> {
  const id = recordId(group, request);
  const condition = ifMatch(request);
  refuseMaskedDocument(request.body);
  const document = validateBody(documentInsertRequest(), request.body, knownFields());
  refuseHidden(request.auth, group, ['documents']);
  await refuseChangeOutsideSchools(request, group, id, writer.records);
  await refuseChangeOutOfReach(request, group, id, writer.records);
  const response = await once(idempotency, idempotentPost(group, request), async (keep) =>
    created(
      request,
      group,
      await writer.addDocument(group, id, document, condition, (record) =>
        keep ? [keep(created(request, group, record))] : [],
      ),
    ),
  );
  return inView(request, group, response);
}
