// The log lines' shape (docs/deploy.md, "Logs, metrics and traces"): level, time and message first, the
// invocation's cold start, Lambda request id and X-Ray trace id, the keys of the request, then the fields.
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './log';

const invocation = (awsRequestId: string) => ({ functionName: 'students-list', awsRequestId }) as Context;

afterEach(() => {
  delete process.env._X_AMZN_TRACE_ID;
});

describe('the logger', () => {
  it('writes one JSON line an event, with the invocation, its keys and the fields', () => {
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line));
    process.env._X_AMZN_TRACE_ID =
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    logger.beginInvocation(invocation('first'));
    logger.appendKeys({ person_id: 'p1' });
    logger.info('request', { route: 'list-students', status: 200 });
    logger.beginInvocation(invocation('second'));
    logger.warn('slow', { duration_ms: 12 });
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(first ?? {}).slice(0, 3)).toEqual(['level', 'time', 'message']);
    expect(first).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: 'request',
      cold_start: expect.any(Boolean),
      function_request_id: 'first',
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      person_id: 'p1',
      route: 'list-students',
      status: 200,
    });
    // A new invocation: no longer cold, and no keys of the last.
    expect(second).toMatchObject({ level: 'warn', cold_start: false, function_request_id: 'second' });
    expect(second).not.toHaveProperty('person_id');
  });

  it('writes nothing below its level, and nothing at all when silent', () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (line) => lines.push(line));
    logger.debug('d');
    logger.info('i');
    logger.error('e');
    const silent = createLogger('silent', (line) => lines.push(line));
    silent.error('never');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(['e']);
  });

  it('carries no invocation fields outside Lambda', () => {
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line));
    logger.beginInvocation({} as Context);
    logger.info('export');
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      level: 'info',
      time: expect.any(String),
      message: 'export',
    });
  });
});
