// What a client is told about a record that is not there: 410 while its deletion is retained, else 404.
import type { RecordRepository } from '../data/record-repository';
import { idFields, type RecordGroup } from '../domain/groups';
import { GoneError, NotFoundError } from '../http/errors';

export async function missingRecord(
  records: RecordRepository,
  group: RecordGroup,
  id: string,
): Promise<never> {
  const deletedAt = await records.deletedAt(group, id);
  if (deletedAt) throw new GoneError(`The ${group} record ${id} was deleted at ${deletedAt}.`);
  throw new NotFoundError(`No ${group} record has ${idFields[group]} ${id}.`);
}
