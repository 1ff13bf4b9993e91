// Refuses a query parameter longer than the bound the service sets for it (its query length table),
// before any handler runs.
import { BadRequestError } from './errors';
import type { QueryParams } from './request';

/** Refuses a request with a query parameter longer than its bound, naming each such parameter. */
export function checkQueryLengths(query: QueryParams, maxLength: Readonly<Record<string, number>>): void {
  const tooLong = query.names().filter((name) => {
    const max = maxLength[name];
    return max !== undefined && query.all(name).some((value) => [...value].length > max);
  });
  if (tooLong.length === 0) return;
  throw new BadRequestError(
    `The query parameter ${tooLong.join(', ')} is too long.`,
    tooLong.map((name) => ({ name, in: 'query', reason: `at most ${maxLength[name]} characters` })),
  );
}
