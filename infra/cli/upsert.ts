// Upserts one imported record by its processnumber, through the same validation and transactional
// writes as the API: a new processnumber creates, a known one replaces only when something differs, so
// importing the same file twice changes nothing.
import { isDeepStrictEqual } from 'node:util';
import type { RecordRepository } from '../../shared/data/record-repository';
import { idFields, type NumberedGroup } from '../../shared/domain/groups';
import { ConflictError, HttpError, PreconditionFailedError } from '../../shared/http/errors';
import { validateBody } from '../../shared/http/validate';
import type { RecordWriter } from '../../shared/records/record-writer';
import { insertRequests } from '../../shared/schemas/requests';

export type Outcome =
  | { result: 'created' | 'updated' | 'unchanged' }
  | { result: 'refused'; reasons: string[] };

export interface Upserter {
  upsert(value: unknown): Promise<Outcome>;
}

export function createUpserter(
  group: NumberedGroup,
  records: RecordRepository,
  writer: RecordWriter,
  knownFields: string[],
): Upserter {
  // What a record carries as the API returns it (and an export holds) but no insert request takes; the
  // upsert goes by processnumber, so an exported file imports back as it is.
  const readOnly = new Set<string>([idFields[group], 'created_at', 'updated_at']);
  const writable = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([field]) => !readOnly.has(field)))
      : value;
  const attempt = async (value: unknown): Promise<Outcome> => {
    const input = validateBody(insertRequests[group], writable(value), knownFields);
    const id = await records.idByProcessnumber(group, input.processnumber);
    if (!id) {
      await writer.create(group, input);
      return { result: 'created' };
    }
    const current = await records.get(group, id);
    if (!current) return attempt(value);
    const { entity_id: _entity, ...fields } = input;
    const record = current.record as Record<string, unknown>;
    if (Object.entries(fields).every(([field, wanted]) => isDeepStrictEqual(record[field], wanted))) {
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
