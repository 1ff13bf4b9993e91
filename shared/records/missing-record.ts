// What a client is told about a record that is not there: 410 while its deletion is retained, else 404.
import type { RecordRepository } from '../data/record-repository';
import { idFields, type RecordGroup } from '../domain/groups';
import { GoneError, NotFoundError } from '../http/errors';

/** How long deletions stay listed at /deleted and a deleted id answers 410. */
export const DELETION_RETENTION_DAYS = 90;

/** The 404 of an id with no record, and of one the caller may not read: the two cannot be told apart. */
export const notFound = (group: RecordGroup, id: string) =>
  new NotFoundError(`No ${group} record has ${idFields[group]} ${id}.`);

export async function missingRecord(
  records: RecordRepository,
  group: RecordGroup,
  id: string,
): Promise<never> {
  const deletedAt = await records.deletedAt(group, id);
  if (deletedAt) throw new GoneError(`The ${group} record ${id} was deleted at ${deletedAt}.`);
  throw notFound(group, id);
}
