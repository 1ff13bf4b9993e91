// Upserts one imported record by its processnumber, or (for the rostering groups, whose records no
// processnumber names, and for every group of a OneRoster zip) by its id, through the same validation
// and transactional writes as the API: a new processnumber or id creates, a known one replaces only when
// something differs, so importing the same file twice changes nothing. Deletes go through the writer too.
import { isDeepStrictEqual } from 'node:util';
import type { StoredRecord } from '../../shared/data/record-items';
import type { RecordRepository } from '../../shared/data/record-repository';
import {
  DomainError,
  InvalidInputError,
  NoLongerKeptError,
  RecordNotFoundError,
  StaleVersionError,
  StateConflictError,
} from '../../shared/domain/errors';
import {
  groups,
  idFields,
  isNumberedGroup,
  isRoleGroup,
  type NumberedGroup,
  type RecordGroup,
  type RoleGroup,
  roleGroups,
  roleName,
} from '../../shared/domain/groups';
import { isUuid } from '../../shared/domain/identifiers';
import { HttpError } from '../../shared/http/errors';
import { validateBody } from '../../shared/http/validate';
import { refuseStudentNotInClass } from '../../shared/records/class-students';
import type { RecordWriter } from '../../shared/records/record-writer';
import { type InsertRequest, insertRequests } from '../../shared/schemas/requests';
import type { ImportWriter } from './import-writer';
import { inParallel } from './in-parallel';

export type Outcome =
  | { result: 'created' | 'updated' | 'deleted' | 'unchanged' }
  | { result: 'refused'; reasons: string[] };

/** A value to upsert; `defaults` fill the fields it leaves out only when the record is created. */
export interface Upsert {
  value: unknown;
  defaults?: Record<string, unknown>;
}

export interface Upserter {
  upsert(value: unknown, defaults?: Record<string, unknown>): Promise<Outcome>;
  /**
   * Upserts by id many values at once, each as `upsert` would: the current records read together, and
   * the new ones created in as few transactions as DynamoDB allows (ImportWriter.createMany); a record
   * that exists, a refusal and a create whose transaction did not commit go the one-at-a-time way.
   */
  upsertMany(values: readonly Upsert[], concurrency: number): Promise<Outcome[]>;
}

export interface UpsertOptions {
  /**
   * Upsert by the id the value carries whatever the group (a OneRoster zip's rows, whose ids are kept or
   * derived), keeping of a current record every field the value leaves out: a OneRoster user carries no
   * photo, address or document, and loading one must not drop the record's own.
   */
  byId?: boolean;
  /**
   * Fields whose current value a record keeps where the value's stands for the same, by field: whether
   * the two are the same (a OneRoster user's `sex` for a person's free-text gender, which it maps to).
   */
  sameAs?: Record<string, (current: unknown, value: unknown) => boolean>;
  /**
   * Whether the caller has already checked that a new record about a student of a class is of one of its
   * students (the OneRoster import does, a batch at a time); otherwise each new one is checked here.
   */
  classStudentsChecked?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id an imported rostering record carries, which it keeps. */
function importedId(group: RecordGroup, value: unknown): string {
  const field = idFields[group];
  const id = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new InvalidInputError(`${field} must be given.`, [
      { name: field, in: 'body', reason: 'must be a UUID: the record is upserted by it' },
    ]);
  }
  return id.toLowerCase();
}

export function createUpserter(
  group: RecordGroup,
  records: RecordRepository,
  writer: ImportWriter,
  knownFields: string[],
  options: UpsertOptions = {},
): Upserter {
  // What a record carries as the API returns it (and an export holds) but no insert request takes; the
  // upsert goes by processnumber or id, so an exported file imports back as it is.
  const readOnly = new Set<string>([
    idFields[group],
    'created_at',
    'updated_at',
    ...(group === 'entities' ? ['roles'] : []),
  ]);
  const writable = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([field]) => !readOnly.has(field)))
      : value;
  const links = groups[group].links;
  /** A new result or attendance mark is made only for a student of its class, as the API makes one. */
  const checkNew = async (input: unknown) => {
    if (!options.classStudentsChecked) await refuseStudentNotInClass(group, input as object, records);
  };
  /**
   * A school's files name the records a list field links to (a tutor's students) by processnumber as
   * often as by id: each entry that is not a UUID is looked up as a processnumber of the linked group.
   */
  const resolveLinks = async (value: unknown): Promise<unknown> => {
    if (!links || !value || typeof value !== 'object' || Array.isArray(value)) return value;
    const entries = (value as Record<string, unknown>)[links.field];
    if (!Array.isArray(entries)) return value;
    const resolved = await Promise.all(
      entries.map(async (entry) => {
        if (typeof entry !== 'string' || isUuid(entry)) return entry;
        const id = await records.idByProcessnumber(links.group, entry.trim());
        if (id === undefined) {
          throw new InvalidInputError(`${links.field} names a record that does not exist.`, [
            {
              name: links.field,
              in: 'body',
              reason: `no ${groups[links.group].noun} has ${idFields[links.group]} or processnumber ${entry}`,
            },
          ]);
        }
        return id;
      }),
    );
    return { ...value, [links.field]: resolved };
  };
  /** What a value makes of the current record's fields (or of `defaults`, for a new one), validated. */
  const inputById = async (value: unknown, defaults: Record<string, unknown>, current: unknown) => {
    const now = current as Record<string, unknown> | undefined;
    const given = value as Record<string, unknown>;
    const kept = Object.entries(options.sameAs ?? {}).filter(
      ([field, same]) => now && field in now && field in given && same(now[field], given[field]),
    );
    const whole = {
      ...(now ?? defaults),
      ...given,
      ...Object.fromEntries(kept.map(([field]) => [field, now?.[field]])),
    };
    return validateBody(insertRequests[group], writable(await resolveLinks(whole)), knownFields);
  };
  /**
   * The same, by the id the value carries: a current record's fields under the value's. `known` is the
   * record as a batch read it, used instead of reading it again.
   */
  const attemptById = async (
    value: unknown,
    defaults: Record<string, unknown>,
    known?: StoredRecord<RecordGroup>,
  ): Promise<Outcome> => {
    const id = importedId(group, value);
    const current = known ?? (await records.get(group, id));
    const input = await inputById(value, defaults, current?.record);
    if (!current) {
      await checkNew(input);
      await writer.create(group, input, undefined, id);
      return { result: 'created' };
    }
    return replaceIfChanged(id, input, current);
  };
  const replaceIfChanged = async (
    id: string,
    input: unknown,
    current: { record: unknown; version: number },
  ): Promise<Outcome> => {
    // A role record's entity_id may be left out of a file; it stays with its entity either way.
    const fields = Object.entries(input as Record<string, unknown>).filter(
      ([field]) => !(isRoleGroup(group) && field === 'entity_id'),
    );
    const record = current.record as Record<string, unknown>;
    // A field the record does not hold is none, as null is (an organisation's parent_id).
    if (fields.every(([field, wanted]) => isDeepStrictEqual(record[field] ?? null, wanted ?? null))) {
      return { result: 'unchanged' };
    }
    await writer.replace(group, id, input as InsertRequest<typeof group>, {
      any: false,
      versions: [current.version],
    });
    return { result: 'updated' };
  };
  const attempt = async (value: unknown): Promise<Outcome> => {
    const input = validateBody(insertRequests[group], writable(await resolveLinks(value)), knownFields);
    const numbered = isNumberedGroup(group);
    const id = numbered
      ? await records.idByProcessnumber(group, (input as InsertRequest<NumberedGroup>).processnumber)
      : importedId(group, value);
    const current = id === undefined ? undefined : await records.get(group, id);
    if (!current || id === undefined) {
      // A processnumber whose record went since it was read is read again.
      if (numbered && id !== undefined) return attempt(value);
      await checkNew(input);
      await writer.create(group, input, undefined, numbered ? undefined : id);
      return { result: 'created' };
    }
    return replaceIfChanged(id, input, current);
  };
  /** Upserts one value, a race with another writer (of the same processnumber) settled by trying again. */
  const upsertOne = async (
    value: unknown,
    defaults: Record<string, unknown>,
    known?: StoredRecord<RecordGroup>,
  ): Promise<Outcome> => {
    for (let tries = 1; ; tries++) {
      try {
        if (!options.byId) return await attempt(value);
        return await attemptById(value, defaults, tries === 1 ? known : undefined);
      } catch (error) {
        const raced =
          error instanceof StaleVersionError ||
          (error instanceof StateConflictError && error.problems?.[0]?.name === 'processnumber');
        if (raced && tries < 3) continue;
        return refused(error);
      }
    }
  };
  return {
    upsert: (value, defaults = {}) => upsertOne(value, defaults),
    async upsertMany(values, concurrency) {
      const ids = values.map(({ value }) => {
        try {
          return importedId(group, value);
        } catch {
          return undefined;
        }
      });
      const current = await records.getManyStored(
        group,
        ids.filter((id) => id !== undefined),
      );
      const creates: { index: number; id: string; input: InsertRequest<typeof group> }[] = [];
      for (const [index, { value, defaults = {} }] of values.entries()) {
        const id = ids[index];
        if (!options.byId || id === undefined || current.has(id)) continue;
        try {
          const input = await inputById(value, defaults, undefined);
          await checkNew(input);
          creates.push({ index, id, input });
        } catch {
          // Refused: upsertOne says why.
        }
      }
      const created = await writer.createMany(group, creates);
      const outcomes: (Outcome | undefined)[] = values.map(() => undefined);
      created.forEach((record, k) => {
        if (record) outcomes[(creates[k] as { index: number }).index] = { result: 'created' };
      });
      return inParallel(
        values,
        concurrency,
        async ({ value, defaults = {} }, index) =>
          outcomes[index] ?? upsertOne(value, defaults, current.get(ids[index] ?? '')),
      );
    },
  };
}

/**
 * A refusal of the request's own (a domain error, or the body validation's 4xx) as its outcome, naming each
 * field at fault with its reason; any other failure is thrown on.
 */
function refused(error: unknown): Outcome {
  const refusal =
    error instanceof DomainError
      ? { detail: error.message, fields: error.problems }
      : error instanceof HttpError && error.status < 500
        ? { detail: error.message, fields: error.invalidParams }
        : undefined;
  if (!refusal) throw error;
  return {
    result: 'refused',
    reasons: refusal.fields?.map((p) => `${p.name}: ${p.reason}`) ?? [refusal.detail],
  };
}

/** Deletes a record through the writer: one already gone is unchanged, one the writer refuses is refused. */
export async function removeRecord(group: RecordGroup, id: string, writer: RecordWriter): Promise<Outcome> {
  try {
    await writer.remove(group, id);
    return { result: 'deleted' };
  } catch (error) {
    if (error instanceof RecordNotFoundError || error instanceof NoLongerKeptError)
      return { result: 'unchanged' };
    return refused(error);
  }
}

/** Deletes a person: every role record, then the entity, which ends the person's enrollments. */
export async function removePerson(
  entityId: string,
  records: RecordRepository,
  writer: RecordWriter,
): Promise<Outcome> {
  const entity = await records.get('entities', entityId);
  if (!entity) return { result: 'unchanged' };
  for (const { role, id } of entity.record.roles) {
    const group = roleGroups.find((g) => roleName(g) === role) as RoleGroup;
    const outcome = await removeRecord(group, id, writer);
    if (outcome.result === 'refused') return outcome;
  }
  return removeRecord('entities', entityId, writer);
}
