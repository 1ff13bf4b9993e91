// The object a OneRoster path names: its sourcedId, and the error of a sourcedId that names nothing.
import { RecordNotFoundError } from '../domain/errors';
import { isUuid } from '../domain/identifiers';
import type { ApiRequest } from '../exchange';

export const unknownObject = (kind: string, id: string) =>
  new RecordNotFoundError(`No ${kind} has the sourcedId ${id}.`);

/**
 * The sourcedId a path names (`{sourcedId}`, or `{classSourcedId}` under a school), in lower case as ids
 * are stored. Every sourcedId of this service is a UUID, so anything else names no object: 404 before
 * the table is read, without echoing what may be kilobytes of text.
 */
export function pathId(request: ApiRequest, kind: string, name = 'sourcedId'): string {
  const id = request.path[name] ?? '';
  if (!isUuid(id)) {
    throw new RecordNotFoundError(`No ${kind} has that sourcedId: sourcedIds are UUIDs.`);
  }
  return id.toLowerCase();
}
