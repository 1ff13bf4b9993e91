// What the factory (api.ts) and the dialects need of a logger: the service's logger is one.
import type { Context } from 'aws-lambda';

export type LogFields = Record<string, string | number | boolean | undefined>;

export interface RequestLogger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Starts an invocation: its Lambda context on every line, and no keys of the last. */
  beginInvocation(context: Context): void;
  /** Fields every further line of this invocation carries (the acting person's id). */
  appendKeys(fields: LogFields): void;
}
