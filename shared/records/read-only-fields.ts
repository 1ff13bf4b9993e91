// The fields of a record the service sets (its id, timestamps, an entity's roles). A record read with
// GET may be sent back with PUT as it is: these fields are then checked against the record and dropped
// before the body is validated as an insert request.
import { isDeepStrictEqual } from 'node:util';
import { type FieldProblem, InvalidInputError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';

export const readOnlyFields = (group: RecordGroup): readonly string[] => [
  idFields[group],
  'created_at',
  'updated_at',
  ...(group === 'entities' ? ['roles'] : []),
];

export interface SplitBody {
  /** The body without its read-only fields, to validate as an insert request. */
  input: unknown;
  /** The read-only fields the body carried, by name. */
  readOnly: Record<string, unknown>;
}

/**
 * Takes the read-only fields out of a replace body. The id must be the path's: another gets 400 at once,
 * before anything is read.
 */
export function splitReadOnly(group: RecordGroup, body: unknown, id: string): SplitBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { input: body, readOnly: {} };
  const input: Record<string, unknown> = { ...body };
  const readOnly: Record<string, unknown> = {};
  for (const field of readOnlyFields(group)) {
    if (!(field in input)) continue;
    readOnly[field] = input[field];
    delete input[field];
  }
  const idField = idFields[group];
  const sent = readOnly[idField];
  if (sent !== undefined && (typeof sent !== 'string' || sent.toLowerCase() !== id)) {
    throw new InvalidInputError(`${idField} in the body is not the record's.`, [
      { name: idField, in: 'body', reason: `must be ${id}, the id in the path, or left out` },
    ]);
  }
  return { input, readOnly };
}

/** Refuses read-only fields that differ from the current record's; equal ones are ignored. */
export function checkReadOnly(readOnly: Record<string, unknown>, current: object): void {
  const stored = current as Record<string, unknown>;
  const differing: FieldProblem[] = Object.entries(readOnly)
    .filter(([field, value]) => !isDeepStrictEqual(value, stored[field]))
    .map(([field]) => ({
      name: field,
      in: 'body',
      reason: `read-only: the service sets it; send the record's value (${JSON.stringify(stored[field])}) or leave it out`,
    }));
  if (differing.length > 0) {
    throw new InvalidInputError(
      'The body changes fields only the service sets. If the record changed since you read it, read it again.',
      differing,
    );
  }
}
