// What a token reads of a group's records: its sensitive values masked unless it may read them
// (sensitive-fields.ts), and only the fields its client's profile lets it read (shared/clients/profiles.ts).
import type { AccessToken } from '../auth/access-token';
import { hiddenRecordFields } from '../clients/profiles';
import { InvalidInputError } from '../domain/errors';
import type { RecordGroup } from '../domain/groups';
import { sensitiveView } from './sensitive-fields';

export function readerView(auth: AccessToken | undefined, group: RecordGroup) {
  const masked = sensitiveView(auth, group);
  const hidden = hiddenRecordFields(auth?.profile, group);
  if (hidden.length === 0) return masked;
  return <T>(record: T): T => {
    const shown: Record<string, unknown> = { ...(masked(record) as Record<string, unknown>) };
    for (const field of hidden) delete shown[field];
    return shown as T;
  };
}

/**
 * Refuses a write that sets a field the client's profile keeps from it: what it may not read, it may not
 * write either. `fields` are the body's top-level fields, or the one a nested write adds to.
 */
export function refuseHidden(auth: AccessToken | undefined, group: RecordGroup, fields: readonly string[]) {
  const hidden = hiddenRecordFields(auth?.profile, group);
  const set = fields.filter((field) => hidden.includes(field));
  if (set.length > 0) {
    throw new InvalidInputError("The body sets fields this client's profile does not read.", [
      ...set.map((name) => ({
        name,
        in: 'body' as const,
        reason: "not read by this client's profile, so not written by it either",
      })),
    ]);
  }
}

/** A replacement's body with the fields the client's profile keeps from it taken from the record as it is. */
export function withHidden(
  auth: AccessToken | undefined,
  group: RecordGroup,
  body: unknown,
  current: object,
): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const kept = current as Record<string, unknown>;
  const hidden = hiddenRecordFields(auth?.profile, group).filter((field) => field in kept);
  return { ...body, ...Object.fromEntries(hidden.map((field) => [field, kept[field]])) };
}

/** Whether the client's profile keeps any field of the group from it. */
export const hidesFields = (auth: AccessToken | undefined, group: RecordGroup) =>
  hiddenRecordFields(auth?.profile, group).length > 0;
