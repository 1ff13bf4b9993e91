// The longest value each query parameter of the data routes takes, declared once: the request check
// refuses a longer one with 400 before any handler runs (no lookup ever sends DynamoDB a key past its
// 1,024 bytes), and the API description publishes it as the parameter's maxLength. Lengths count
// characters (code points), as JSON Schema's maxLength does. The factories give it to the HTTP kernel.
import { LIMITS } from './domain/limits';

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
