// Structured JSON logging, one line per event, by the Powertools for AWS Lambda Logger: in Lambda each
// line carries the invocation's cold start, Lambda request id and X-Ray trace id, besides the fields a
// caller passes. Callers pass only operational fields (ids, routes, statuses, timings): personal data,
// secrets and tokens are never handed to the logger. Lines keep the service's own shape (`level` in
// lower case, `time`, `message`), which the alarms, the docs and the tests read.
import { LogFormatter, LogItem, Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

type Level = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, string | number | boolean | undefined>;

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

class ServiceLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        time: this.formatTimestamp(attributes.timestamp),
        message: attributes.message,
        cold_start: attributes.lambdaContext?.coldStart,
        function_request_id: attributes.lambdaContext?.awsRequestId,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }
}

export function createLogger(level: Level | 'silent'): Logger {
  const logger = new PowertoolsLogger({
    logLevel: level,
    logFormatter: new ServiceLogFormatter(),
  });
  return {
    debug: (message, fields = {}) => logger.debug(message, fields),
    info: (message, fields = {}) => logger.info(message, fields),
    warn: (message, fields = {}) => logger.warn(message, fields),
    error: (message, fields = {}) => logger.error(message, fields),
    beginInvocation: (context) => {
      logger.resetKeys();
      if (context.functionName) logger.addContext(context);
    },
    appendKeys: (fields) => logger.appendKeys(fields),
  };
}
