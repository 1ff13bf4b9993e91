// The metrics lines against CloudWatch's embedded metric format specification: a root `_aws` with
// Timestamp and CloudWatchMetrics (Namespace, Dimensions as arrays of dimension names, Metrics as names
// and units), and each dimension and metric a root member of the same line.
import { describe, expect, it } from 'vitest';
import { createRequestMetrics, METRICS_NAMESPACE } from './metrics';

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [member: string]: unknown;
}

/** Checks a line against the format's rules, and returns it. */
function emf(line: string): EmfLine {
  const parsed = JSON.parse(line) as EmfLine;
  expect(Number.isInteger(parsed._aws.Timestamp)).toBe(true);
  for (const directive of parsed._aws.CloudWatchMetrics) {
    expect(directive.Namespace).toBe(METRICS_NAMESPACE);
    for (const set of directive.Dimensions)
      for (const name of set) expect(typeof parsed[name]).toBe('string');
    for (const { Name, Unit } of directive.Metrics) {
      expect(Unit).toBe('Count');
      expect(typeof parsed[Name]).toBe('number');
    }
  }
  return parsed;
}

describe('request metrics', () => {
  it('publish a line by route and tenant, and one a business count under its own dimension', () => {
    const lines: string[] = [];
    const metrics = createRequestMetrics('escola-norte', true, (line) => lines.push(line));
    metrics.request('create-students', 201, [
      { name: 'RecordsWritten', value: 2, dimension: { name: 'group', value: 'students' } },
    ]);
    metrics.request('get-students', 503, []);
    metrics.request('get-students', 404, [{ name: 'SignInFailures', value: 1 }]);
    const [written, created, failed, failure, refused] = lines.map(emf);
    expect(written).toMatchObject({ service: 'escola-norte', group: 'students', RecordsWritten: 2 });
    expect(written?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'group']]);
    expect(created).toMatchObject({
      service: 'escola-norte',
      route: 'create-students',
      Requests: 1,
      Errors: 0,
    });
    expect(created?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'route']]);
    expect(created?._aws.CloudWatchMetrics[0]?.Metrics.map((m) => m.Name)).toEqual([
      'Requests',
      'Errors',
      'ClientErrors',
    ]);
    expect(failed).toMatchObject({ Errors: 1, ClientErrors: 0 });
    expect(failure).toMatchObject({ SignInFailures: 1 });
    expect(failure?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service']]);
    expect(refused).toMatchObject({ Errors: 0, ClientErrors: 1 });
  });

  it('publish nothing when turned off', () => {
    const lines: string[] = [];
    createRequestMetrics('demo', false, (line) => lines.push(line)).request('get-students', 500, []);
    expect(lines).toEqual([]);
  });
});
