// The record id a request names in its path, checked before anything reads the table.

import { InvalidInputError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';
import { isUuid } from '../domain/identifiers';
import type { ApiRequest } from '../exchange';

/** The id in the path, in lower case as the service stores ids; anything but a UUID gets 400. */
export function recordId(group: RecordGroup, { path }: Pick<ApiRequest, 'path'>): string {
  const idField = idFields[group];
  const id = path[idField] ?? '';
  if (!isUuid(id)) {
    throw new InvalidInputError(`${idField} must be a UUID.`, [
      { name: idField, in: 'path', reason: 'not a UUID' },
    ]);
  }
  return id.toLowerCase();
}
