// An instant as clients and operators write one: ISO 8601 with a time zone, read as UTC.
import { isDate } from './dates';

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant in UTC (`toISOString`), or undefined for text that is not an ISO 8601 timestamp with a zone
 * on a day that exists, or whose instant in UTC falls outside the years 0000 to 9999:
 * `9999-12-31T23:59:59-23:59` is in 10000, which `toISOString` writes `+010000-…`, and that would sort
 * before every time of the years written with four digits, as the table's keys compare them.
 */
export function parseInstant(value: string): string | undefined {
  const at = Date.parse(value);
  // Date.parse rolls a day that does not exist over into the next month: the day as written must exist.
  if (!isoInstant.test(value) || Number.isNaN(at) || !isDate(value.slice(0, 10))) return undefined;
  const utc = new Date(at).toISOString();
  return /^\d{4}-/.test(utc) ? utc : undefined;
}

/** The UTC day of an instant (epoch milliseconds), `YYYY-MM-DD`. */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The UTC minute of an instant (epoch milliseconds), `YYYY-MM-DDTHH:MM`. */
export const utcMinute = (at: number) => new Date(at).toISOString().slice(0, 16);
