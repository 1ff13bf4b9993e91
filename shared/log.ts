// Structured JSON logging, one line per event on standard output: in Lambda each line carries the
// invocation's cold start, Lambda request id and X-Ray trace id, besides the fields a caller passes.
// Callers pass only operational fields (ids, routes, statuses, timings): personal data, secrets and
// tokens are never handed to the logger. Lines have the service's own shape (`level` in lower case,
// `time`, `message`), which the alarms, the docs and the tests read. Written here rather than with the
// Powertools Logger: the same lines for a tenth of its bundle and import time (docs/benchmarks.md,
// "What Powertools adds").
import type { Context } from 'aws-lambda';
import type { LogFields } from './http/logger';

type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Starts an invocation: its Lambda context (cold start, request id) on every line, and no keys of the last. */
  beginInvocation(context: Context): void;
  /** Fields every further line of this invocation carries (the acting person's id). */
  appendKeys(fields: LogFields): void;
}

const severity: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The Root of Lambda's `_X_AMZN_TRACE_ID` (`Root=1-…;Parent=…;Sampled=…`), set per invocation. */
const xrayTraceId = () => process.env._X_AMZN_TRACE_ID?.match(/Root=([^;]+)/)?.[1];

/** Whether this process has begun an invocation yet: Lambda runs one at a time, the first cold. */
let invocations = 0;

export function createLogger(
  level: Level | 'silent',
  write = (line: string) => {
    process.stdout.write(`${line}\n`);
  },
): Logger {
  const threshold = level === 'silent' ? Number.POSITIVE_INFINITY : severity[level];
  let invocation: LogFields = {};
  let keys: LogFields = {};
  const at =
    (lineLevel: Level) =>
    (message: string, fields: LogFields = {}) => {
      if (severity[lineLevel] < threshold) return;
      write(
        JSON.stringify({
          level: lineLevel,
          time: new Date().toISOString(),
          message,
          ...invocation,
          xray_trace_id: invocation.function_request_id === undefined ? undefined : xrayTraceId(),
          ...keys,
          ...fields,
        }),
      );
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    beginInvocation: (context) => {
      keys = {};
      if (!context.functionName) return;
      invocation = { cold_start: invocations === 0, function_request_id: context.awsRequestId };
      invocations += 1;
    },
    appendKeys: (fields) => {
      keys = { ...keys, ...fields };
    },
  };
}
