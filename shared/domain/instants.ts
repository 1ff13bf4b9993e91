// An instant as clients and operators write one: ISO 8601 with a time zone, read as UTC.

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant in UTC (`toISOString`), or undefined for text that is not an ISO 8601 timestamp with a zone. */
export function parseInstant(value: string): string | undefined {
  const at = Date.parse(value);
  return isoInstant.test(value) && !Number.isNaN(at) ? new Date(at).toISOString() : undefined;
}

/** The UTC day of an instant (epoch milliseconds), `YYYY-MM-DD`. */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The UTC minute of an instant (epoch milliseconds), `YYYY-MM-DDTHH:MM`. */
export const utcMinute = (at: number) => new Date(at).toISOString().slice(0, 16);
