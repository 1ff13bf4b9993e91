// The longest value each query parameter of the data routes takes, declared once: the request check
// refuses a longer one with 400 before any handler runs (no lookup ever sends DynamoDB a key past its
// 1,024 bytes), and the API description publishes it as the parameter's maxLength. Lengths count
// characters (code points), as JSON Schema's maxLength does.
import { LIMITS } from '../domain/limits';
import { BadRequestError } from './errors';
import type { QueryParams } from './request';

/** An ISO 8601 timestamp with nine fractional digits and an offset, with room to spare. */
const TIMESTAMP_CHARS = 40;
/** An access token: an ES256 JWT whose scope names every group, with room to spare. */
const ACCESS_TOKEN_CHARS = 8_192;

export const QUERY_MAX_LENGTH: Readonly<Record<string, number>> = {
  processnumber: LIMITS.processnumberChars,
  email: LIMITS.emailChars,
  cursor: LIMITS.cursorChars,
  fields: LIMITS.queryTextChars,
  sort: LIMITS.queryTextChars,
  filter: LIMITS.queryTextChars,
  updated_since: TIMESTAMP_CHARS,
  since: TIMESTAMP_CHARS,
  access_token: ACCESS_TOKEN_CHARS,
};

/** Refuses a request with a query parameter longer than its bound, naming each such parameter. */
export function checkQueryLengths(query: QueryParams): void {
  const tooLong = query.names().filter((name) => {
    const max = QUERY_MAX_LENGTH[name];
    return max !== undefined && query.all(name).some((value) => [...value].length > max);
  });
  if (tooLong.length === 0) return;
  throw new BadRequestError(
    `The query parameter ${tooLong.join(', ')} is too long.`,
    tooLong.map((name) => ({ name, in: 'query', reason: `at most ${QUERY_MAX_LENGTH[name]} characters` })),
  );
}
