// Opaque list cursors: base64url JSON naming the tenant, the group, the kind of list and where the next
// page starts. A cursor is checked on the way back in; one this tenant did not issue for this list is
// refused with 400.
import * as z from 'zod';
import type { RecordGroup } from '../domain/groups';
import { BadRequestError } from '../http/errors';

const position = z.string().min(1).max(120);
const timestamp = z.iso.datetime();

const CursorSchema = z.discriminatedUnion('k', [
  /** A page of a list: the page number it opens and the id it starts after. */
  z.strictObject({
    v: z.literal(1),
    t: z.string(),
    g: z.string(),
    k: z.literal('list'),
    p: z.int().min(2),
    a: z.uuid(),
  }),
  /** A page of changes or deletions: the window (since, until] and the position it starts after. */
  z.strictObject({
    v: z.literal(1),
    t: z.string(),
    g: z.string(),
    k: z.enum(['changes', 'deleted']),
    s: timestamp,
    u: timestamp,
    a: position,
  }),
]);

export type ListCursor = { kind: 'list'; page: number; after: string };
export type WindowCursor = { kind: 'changes' | 'deleted'; since: string; until: string; after: string };
export type Cursor = ListCursor | WindowCursor;

const MAX_CURSOR_LENGTH = 512;

export function encodeCursor(tenantId: string, group: RecordGroup, cursor: Cursor): string {
  const body =
    cursor.kind === 'list'
      ? { v: 1, t: tenantId, g: group, k: 'list', p: cursor.page, a: cursor.after }
      : { v: 1, t: tenantId, g: group, k: cursor.kind, s: cursor.since, u: cursor.until, a: cursor.after };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** Decodes a cursor issued for this tenant's list of this group, of one of the kinds the list serves. */
export function decodeCursor<K extends Cursor['kind']>(
  cursor: string,
  tenantId: string,
  group: RecordGroup,
  kinds: readonly K[],
): Cursor & { kind: K } {
  const refuse = (reason: string) =>
    new BadRequestError('The cursor is not valid for this list.', [{ name: 'cursor', in: 'query', reason }]);
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw refuse('not a cursor issued by this service');
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse('not a cursor issued by this service');
  }
  const parsed = CursorSchema.safeParse(decoded);
  if (!parsed.success) throw refuse('not a cursor issued by this service');
  const c = parsed.data;
  if (c.t !== tenantId) throw refuse('issued for another tenant');
  if (c.g !== group || !(kinds as readonly string[]).includes(c.k))
    throw refuse(`issued for another list, not this ${group} list`);
  const result: Cursor =
    c.k === 'list'
      ? { kind: 'list', page: c.p, after: c.a }
      : { kind: c.k, since: c.s, until: c.u, after: c.a };
  return result as Cursor & { kind: K };
}
