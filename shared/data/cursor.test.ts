import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../domain/errors';
import { type Cursor, decodeCursor, encodeCursor, type WindowCursor } from './cursor';

const list: Cursor = { kind: 'list', page: 3, after: '0b8c1f2e-9d4a-4c6b-8e1f-2a3b4c5d6e7f' };
const changes: WindowCursor = {
  kind: 'changes',
  since: '2026-09-01T08:00:00.000Z',
  until: '2026-09-02T08:00:00.000Z',
  after: '2026-09-01T09:00:00.000Z#0b8c1f2e-9d4a-4c6b-8e1f-2a3b4c5d6e7f',
};
/** A window cursor's wire form, as the service writes it. */
const wire = (c: WindowCursor) => ({
  v: 1,
  t: 'demo',
  g: 'students',
  k: c.kind,
  s: c.since,
  u: c.until,
  a: c.after,
});
const demo = { tenantId: 'demo', cursorKey: 'k'.repeat(43) };
/** A cursor signed with the tenant's key, holding whatever it is given: what a key in the wrong hands could write. */
const forge = (body: unknown) => {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  const mac = createHmac('sha256', demo.cursorKey).update(payload).digest().subarray(0, 16);
  return `${payload}.${mac.toString('base64url')}`;
};
const reason = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).problems?.[0]?.reason;
  }
  throw new Error('not refused');
};

describe('cursors (contract section 4)', () => {
  it('come back as they were issued, for the tenant, group and kind they were issued for', () => {
    expect(decodeCursor(encodeCursor(demo, 'students', list), demo, 'students', ['list'])).toEqual(list);
    expect(decodeCursor(encodeCursor(demo, 'students', changes), demo, 'students', ['changes'])).toEqual(
      changes,
    );
  });

  it("are refused with 400 when this tenant's list did not issue them", () => {
    const cursor = encodeCursor(demo, 'students', list);
    expect(
      reason(() =>
        decodeCursor(encodeCursor({ ...demo, tenantId: 'other' }, 'students', list), demo, 'students', [
          'list',
        ]),
      ),
    ).toBe('issued for another tenant');
    expect(reason(() => decodeCursor(cursor, demo, 'teachers', ['list']))).toMatch(/another list/);
    expect(reason(() => decodeCursor(cursor, demo, 'students', ['changes']))).toMatch(/another list/);
  });

  it.each([
    ['not base64url', '!!!'],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['an array', forge([1])],
    ['another version', forge({ v: 2, t: 'demo', g: 'students', k: 'list', p: 2, a: list.after })],
    ['page 1', forge({ v: 1, t: 'demo', g: 'students', k: 'list', p: 1, a: list.after })],
    ['a fractional page', forge({ v: 1, t: 'demo', g: 'students', k: 'list', p: 2.5, a: list.after })],
    ['a position that is no id', forge({ v: 1, t: 'demo', g: 'students', k: 'list', p: 2, a: 'x' })],
    ['an extra field', forge({ v: 1, t: 'demo', g: 'students', k: 'list', p: 2, a: list.after, x: 1 })],
    [
      'a time that is not one',
      forge({ v: 1, t: 'demo', g: 'students', k: 'changes', s: 'yesterday', u: changes.until, a: 'x' }),
    ],
    [
      'an empty position',
      forge({ v: 1, t: 'demo', g: 'students', k: 'deleted', s: changes.since, u: changes.until, a: '' }),
    ],
    ['an unknown kind', forge({ v: 1, t: 'demo', g: 'students', k: 'other', a: 'x' })],
    ['too long', 'a'.repeat(513)],
    [
      'its window runs backwards',
      forge({
        v: 1,
        t: 'demo',
        g: 'students',
        k: 'changes',
        s: changes.until,
        u: changes.since,
        a: changes.after,
      }),
    ],
    ['its position lies after its window', forge({ ...wire(changes), a: '2027-01-01T00:00:00Z#x' })],
    ['its position lies before its window', forge({ ...wire(changes), a: '1900-01-01T00:00:00Z#x' })],
    ['its position is not plain text', forge({ ...wire(changes), a: '2026-09-01T09:00:00.000Z#é' })],
    ['it is unsigned', encodeCursor(demo, 'students', changes).split('.')[0] as string],
    [
      'it is signed with another key',
      encodeCursor({ ...demo, cursorKey: 'o'.repeat(43) }, 'students', changes),
    ],
    [
      'its contents were changed after signing',
      `${Buffer.from(JSON.stringify({ ...wire(changes), u: '2026-09-03T08:00:00.000Z' })).toString('base64url')}.${encodeCursor(demo, 'students', changes).split('.')[1]}`,
    ],
  ])('are refused when %s', (_case, cursor) => {
    expect(reason(() => decodeCursor(cursor, demo, 'students', ['list', 'changes', 'deleted']))).toBe(
      'not a cursor issued by this service',
    );
  });
});
