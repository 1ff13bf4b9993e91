// What every function of the service shares, built once per cold start on first use: its configuration
// (parsed from the environment), its logger and its metrics. Each operation's other parts are built by the modules
// beside this one, so a function holds only the parts its operation uses.
import { type Config, parseConfig } from '../config';
import { createLogger, type Logger } from '../log';
import { createRequestMetrics, type RequestMetrics } from '../metrics';

/** A value built on first use and kept for the life of the process (a Lambda execution environment). */
export function once<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}

export const config = once((): Config => parseConfig(process.env));

export const logger = once((): Logger => createLogger(config().logLevel));

export const metrics = once(
  (): RequestMetrics => createRequestMetrics(config().tenantId, config().metricsEnabled),
);
