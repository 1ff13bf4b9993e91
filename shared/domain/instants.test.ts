// An instant as clients write one (shared/domain/instants.ts): ISO 8601 with a time zone, read as UTC,
// within the years the table's keys compare as text.
import { describe, expect, it } from 'vitest';
import { parseInstant } from './instants';

describe('parseInstant', () => {
  it.each([
    ['2026-09-01T08:00:00Z', '2026-09-01T08:00:00.000Z'],
    ['2026-09-01T10:00:00+02:00', '2026-09-01T08:00:00.000Z'],
    ['2026-09-01T08:00Z', '2026-09-01T08:00:00.000Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
  ])('reads %j as %j', (text, utc) => {
    expect(parseInstant(text)).toBe(utc);
  });

  it.each([
    ['2026-09-01T08:00:00', 'no time zone'],
    ['2026-09-01', 'a date alone'],
    ['2026-02-30T08:00:00Z', 'a day that does not exist'],
    ['+010000-01-01T00:00:00Z', 'an expanded year'],
    ['9999-12-31T23:59:59-23:59', 'an instant in the year 10000 in UTC'],
    ['0000-01-01T00:00:00+01:00', 'an instant before the year 0000 in UTC'],
  ])('refuses %j (%s)', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});
