// Opaque list cursors: base64url JSON naming the tenant, the group, the kind of list and where the next
// page starts, then an HMAC-SHA-256 of it under the tenant's cursor key. A cursor is checked on the way
// back in: one this tenant did not issue for this list is refused with 400, whatever it holds. Its
// contents are checked too (a window in order, a position inside it), so that even a cursor signed by
// mistake cannot hand DynamoDB a query it refuses.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidInputError } from '../domain/errors';
import type { RecordGroup } from '../domain/groups';
import { isUuid } from '../domain/identifiers';
import { LIMITS } from '../domain/limits';
import { afterTime } from './keys';

/** What issues and checks a tenant's cursors: its id, and the secret key its functions share (CURSOR_KEY). */
export interface CursorIssuer {
  tenantId: string;
  cursorKey: string;
}

/** 128 bits of the HMAC: guessing one is hopeless, and the cursor stays short. */
const MAC_BYTES = 16;
const MAC_CHARS = Math.ceil((MAC_BYTES * 4) / 3);
const CURSOR = new RegExp(`^([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]{${MAC_CHARS}})$`);
const macOf = (key: string, payload: string) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
/** A position as the service writes them: printable ASCII, so it sorts here as DynamoDB sorts it. */
const POSITION = /^[\x21-\x7e]{1,120}$/;

/** An ISO 8601 UTC timestamp as the service writes them (Date.toISOString). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** A cursor's wire form: a list page (`p`, the page it opens; `a`, the id it starts after) or a window of changes or deletions (`s`, `u`: since and until; `a`, the position it starts after). */
type WireCursor =
  | { v: 1; t: string; g: string; k: 'list'; p: number; a: string }
  | { v: 1; t: string; g: string; k: 'changes' | 'deleted'; s: string; u: string; a: string };

const isString = (value: unknown): value is string => typeof value === 'string';
const hasExactly = (value: object, fields: readonly string[]) =>
  Object.keys(value).length === fields.length && fields.every((field) => field in value);
const isTimestamp = (value: unknown) =>
  isString(value) && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));

/** Whether the window runs forwards and the position lies within it, as the window's Query bounds it. */
const insideWindow = (since: string, until: string, after: string) =>
  afterTime(since) <= afterTime(until) && afterTime(since) <= after && after <= afterTime(until);

/** Checks a decoded cursor's shape, field by field: anything else is not one this service wrote. */
function asWireCursor(value: unknown): WireCursor | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const c = value as Record<string, unknown>;
  if (c.v !== 1 || !isString(c.t) || !isString(c.g)) return undefined;
  if (c.k === 'list') {
    const ok =
      hasExactly(c, ['v', 't', 'g', 'k', 'p', 'a']) &&
      Number.isSafeInteger(c.p) &&
      (c.p as number) >= 2 &&
      isString(c.a) &&
      isUuid(c.a);
    return ok ? (c as WireCursor) : undefined;
  }
  if (c.k === 'changes' || c.k === 'deleted') {
    const ok =
      hasExactly(c, ['v', 't', 'g', 'k', 's', 'u', 'a']) &&
      isTimestamp(c.s) &&
      isTimestamp(c.u) &&
      isString(c.a) &&
      POSITION.test(c.a) &&
      insideWindow(c.s as string, c.u as string, c.a);
    return ok ? (c as WireCursor) : undefined;
  }
  return undefined;
}

export type ListCursor = { kind: 'list'; page: number; after: string };
export type WindowCursor = { kind: 'changes' | 'deleted'; since: string; until: string; after: string };
export type Cursor = ListCursor | WindowCursor;

export function encodeCursor(issuer: CursorIssuer, group: RecordGroup, cursor: Cursor): string {
  const body =
    cursor.kind === 'list'
      ? { v: 1, t: issuer.tenantId, g: group, k: 'list', p: cursor.page, a: cursor.after }
      : {
          v: 1,
          t: issuer.tenantId,
          g: group,
          k: cursor.kind,
          s: cursor.since,
          u: cursor.until,
          a: cursor.after,
        };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${macOf(issuer.cursorKey, payload).toString('base64url')}`;
}

/** Decodes a cursor this tenant issued for its list of this group, of one of the kinds the list serves. */
export function decodeCursor<K extends Cursor['kind']>(
  cursor: string,
  issuer: CursorIssuer,
  group: RecordGroup,
  kinds: readonly K[],
): Cursor & { kind: K } {
  const refuse = (reason: string) =>
    new InvalidInputError('The cursor is not valid for this list.', [
      { name: 'cursor', in: 'query', reason },
    ]);
  const notOurs = () => refuse('not a cursor issued by this service');
  const [, payload = '', mac = ''] = (cursor.length <= LIMITS.cursorChars && CURSOR.exec(cursor)) || [];
  if (!payload || !timingSafeEqual(Buffer.from(mac, 'base64url'), macOf(issuer.cursorKey, payload))) {
    throw notOurs();
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw notOurs();
  }
  const c = asWireCursor(decoded);
  if (!c) throw notOurs();
  if (c.t !== issuer.tenantId) throw refuse('issued for another tenant');
  if (c.g !== group || !(kinds as readonly string[]).includes(c.k))
    throw refuse(`issued for another list, not this ${group} list`);
  const result: Cursor =
    c.k === 'list'
      ? { kind: 'list', page: c.p, after: c.a }
      : { kind: c.k, since: c.s, until: c.u, after: c.a };
  return result as Cursor & { kind: K };
}
