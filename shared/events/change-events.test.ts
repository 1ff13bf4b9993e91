// Which changes of the table are events (docs/events.md, "Event types"): a record put first is created,
// a new version or updated_at is updated, a deletion item is deleted; a record's links moving, and
// every other item, are no event.
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../data/keys';
import { changeOf, type StreamRecord } from './change-events';

const student = (version: number, updatedAt: string, extra: object = {}) =>
  marshall({
    ...keys.record('students', 's-1'),
    student_id: 's-1',
    updated_at: updatedAt,
    _version: version,
    ...extra,
  }) as never;

const record = (
  eventName: string,
  images: { NewImage?: never; OldImage?: never },
  key = keys.record('students', 's-1'),
): StreamRecord => ({ eventID: 'abc123', eventName, dynamodb: { Keys: marshall(key) as never, ...images } });

describe('change events', () => {
  it('tells a created, an updated and a deleted record', () => {
    expect(changeOf(record('INSERT', { NewImage: student(1, '2026-01-01T00:00:00.000Z') }))).toEqual({
      event_id: 'evt_abc123',
      type: 'students.created',
      record_id: 's-1',
      at: '2026-01-01T00:00:00.000Z',
    });
    const replaced = record('MODIFY', {
      OldImage: student(1, '2026-01-01T00:00:00.000Z'),
      NewImage: student(2, '2026-01-02T00:00:00.000Z'),
    });
    expect(changeOf(replaced)).toMatchObject({ type: 'students.updated', at: '2026-01-02T00:00:00.000Z' });
    const deletion = keys.deletion('students', '2026-01-03T00:00:00.000Z', 's-1');
    const deleted = record(
      'INSERT',
      {
        NewImage: marshall({
          ...deletion,
          student_id: 's-1',
          deleted_at: '2026-01-03T00:00:00.000Z',
        }) as never,
      },
      deletion,
    );
    expect(changeOf(deleted)).toMatchObject({
      type: 'students.deleted',
      record_id: 's-1',
      at: '2026-01-03T00:00:00.000Z',
    });
  });

  it('tells an updated_at moved without a new version (a role record disabled touches its entity)', () => {
    const touched = record('MODIFY', {
      OldImage: student(3, '2026-01-01T00:00:00.000Z'),
      NewImage: student(3, '2026-01-05T00:00:00.000Z'),
    });
    expect(changeOf(touched)?.type).toBe('students.updated');
  });

  it('is no event when only links moved, a record went, or the item is not a record', () => {
    const linksMoved = record('MODIFY', {
      OldImage: student(3, '2026-01-01T00:00:00.000Z', { _links: 1 }),
      NewImage: student(3, '2026-01-01T00:00:00.000Z', { _links: 2 }),
    });
    expect(changeOf(linksMoved)).toBeUndefined();
    expect(changeOf(record('REMOVE', { OldImage: student(3, '2026-01-01T00:00:00.000Z') }))).toBeUndefined();
    const token = keys.refreshToken('hash');
    expect(changeOf(record('INSERT', { NewImage: marshall({ ...token }) as never }, token))).toBeUndefined();
    const counter = keys.counter('students', 0);
    expect(
      changeOf(record('MODIFY', { NewImage: marshall({ ...counter, count: 3 }) as never }, counter)),
    ).toBeUndefined();
  });
});
