// Upserts one imported record by its processnumber, or (for the rostering groups, whose records no
// processnumber names) by its id, through the same validation and transactional writes as the API: a
// new processnumber or id creates, a known one replaces only when something differs, so importing the
// same file twice changes nothing.
import { isDeepStrictEqual } from 'node:util';
import type { RecordRepository } from '../../shared/data/record-repository';
import {
  idFields,
  isNumberedGroup,
  isRoleGroup,
  type NumberedGroup,
  type RecordGroup,
} from '../../shared/domain/groups';
import { BadRequestError, ConflictError, HttpError, PreconditionFailedError } from '../../shared/http/errors';
import { validateBody } from '../../shared/http/validate';
import type { RecordWriter } from '../../shared/records/record-writer';
import { type InsertRequest, insertRequests } from '../../shared/schemas/requests';

export type Outcome =
  | { result: 'created' | 'updated' | 'unchanged' }
  | { result: 'refused'; reasons: string[] };

export interface Upserter {
  upsert(value: unknown): Promise<Outcome>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id an imported rostering record carries, which it keeps. */
function importedId(group: RecordGroup, value: unknown): string {
  const field = idFields[group];
  const id = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new BadRequestError(`${field} must be given.`, [
      { name: field, in: 'body', reason: 'must be a UUID: the record is upserted by it' },
    ]);
  }
  return id.toLowerCase();
}

export function createUpserter(
  group: RecordGroup,
  records: RecordRepository,
  writer: RecordWriter,
  knownFields: string[],
): Upserter {
  // What a record carries as the API returns it (and an export holds) but no insert request takes; the
  // upsert goes by processnumber or id, so an exported file imports back as it is.
  const readOnly = new Set<string>([idFields[group], 'created_at', 'updated_at']);
  const writable = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([field]) => !readOnly.has(field)))
      : value;
  const attempt = async (value: unknown): Promise<Outcome> => {
    const input = validateBody(insertRequests[group], writable(value), knownFields);
    const numbered = isNumberedGroup(group);
    const id = numbered
      ? await records.idByProcessnumber(group, (input as InsertRequest<NumberedGroup>).processnumber)
      : importedId(group, value);
    const current = id === undefined ? undefined : await records.get(group, id);
    if (!current || id === undefined) {
      // A processnumber whose record went since it was read is read again.
      if (numbered && id !== undefined) return attempt(value);
      await writer.create(group, input, numbered ? undefined : id);
      return { result: 'created' };
    }
    // A role record's entity_id may be left out of a file; it stays with its entity either way.
    const fields = Object.entries(input as Record<string, unknown>).filter(
      ([field]) => !(isRoleGroup(group) && field === 'entity_id'),
    );
    const record = current.record as Record<string, unknown>;
    if (fields.every(([field, wanted]) => isDeepStrictEqual(record[field], wanted))) {
      return { result: 'unchanged' };
    }
    await writer.replace(group, id, input, { any: false, versions: [current.version] });
    return { result: 'updated' };
  };
  return {
    async upsert(value) {
      // A race with another writer of the same processnumber is settled by trying again.
      for (let tries = 1; ; tries++) {
        try {
          return await attempt(value);
        } catch (error) {
          const raced =
            error instanceof PreconditionFailedError ||
            (error instanceof ConflictError && error.invalidParams?.[0]?.name === 'processnumber');
          if (raced && tries < 3) continue;
          if (error instanceof HttpError && error.status < 500) {
            const reasons = error.invalidParams?.map((p) => `${p.name}: ${p.reason}`) ?? [error.message];
            return { result: 'refused', reasons };
          }
          throw error;
        }
      }
    },
  };
}
