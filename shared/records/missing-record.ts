// What a client is told about a record that is not there: 410 while its deletion is retained, else 404.
import type { RecordRepository } from '../data/record-repository';
import { NoLongerKeptError, RecordNotFoundError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';

/** The 404 of an id with no record, and of one the caller may not read: the two cannot be told apart. */
export const notFound = (group: RecordGroup, id: string) =>
  new RecordNotFoundError(`No ${group} record has ${idFields[group]} ${id}.`);

export async function missingRecord(
  records: RecordRepository,
  group: RecordGroup,
  id: string,
): Promise<never> {
  const deletedAt = await records.deletedAt(group, id);
  if (deletedAt) throw new NoLongerKeptError(`The ${group} record ${id} was deleted at ${deletedAt}.`);
  throw notFound(group, id);
}
