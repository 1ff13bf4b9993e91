// Opaque list cursors: base64url JSON naming the tenant, the group, the page it opens and the id the
// page starts after. A cursor is checked on the way back in; one this tenant did not issue for this
// list is refused with 400.
import * as z from 'zod';
import type { RecordGroup } from '../domain/groups';
import { BadRequestError } from '../http/errors';

const CursorSchema = z.strictObject({
  v: z.literal(1),
  t: z.string(),
  g: z.string(),
  p: z.int().min(2),
  a: z.uuid(),
});

export interface CursorPosition {
  page: number;
  after: string;
}

const MAX_CURSOR_LENGTH = 400;

export function encodeCursor(tenantId: string, group: RecordGroup, position: CursorPosition): string {
  const body = { v: 1, t: tenantId, g: group, p: position.page, a: position.after };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeCursor(cursor: string, tenantId: string, group: RecordGroup): CursorPosition {
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
  if (parsed.data.t !== tenantId) throw refuse('issued for another tenant');
  if (parsed.data.g !== group) throw refuse(`issued for another list, not ${group}`);
  return { page: parsed.data.p, after: parsed.data.a };
}
