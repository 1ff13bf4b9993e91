// Calendar dates as the API writes them: `YYYY-MM-DD`.

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date that exists (no 31 February), written `YYYY-MM-DD`. */
export function isDate(text: string): boolean {
  const at = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
}
