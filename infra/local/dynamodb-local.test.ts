// The launcher that keeps DynamoDB Local on loopback is compiled once into a cache and run from there;
// where the cache cannot be written, Java runs it from its source instead of the start failing.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoDbLocalHome, launcherCommand } from './dynamodb-local';

const cache = mkdtempSync(join(tmpdir(), 'launcher-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('the DynamoDB Local launcher', () => {
  const home = dynamoDbLocalHome();
  const jar = join(home, 'DynamoDBLocal.jar');

  it('is compiled once into its cache folder, and run from there on every later start', async () => {
    const first = await launcherCommand(home, cache);
    expect(first).toEqual([
      '-cp',
      expect.stringMatching(new RegExp(`^${jar}:${cache}/[0-9a-f]{16}$`)),
      'LoopbackDynamoDbLocal',
    ]);
    const folder = (first[1] as string).split(':')[1] as string;
    const compiledAt = statSync(join(folder, 'LoopbackDynamoDbLocal.class')).mtimeMs;
    expect(await launcherCommand(home, cache)).toEqual(first);
    expect(statSync(join(folder, 'LoopbackDynamoDbLocal.class')).mtimeMs).toBe(compiledAt);
    // Nothing half written is left beside it.
    expect(existsSync(`${folder}.partial-${process.pid}`)).toBe(false);
  }, 60_000);

  it('runs from its source where the cache cannot be written', async () => {
    expect(await launcherCommand(home, '/dev/null/launcher-cache')).toEqual([
      '-cp',
      jar,
      expect.stringMatching(/\/infra\/local\/LoopbackDynamoDbLocal\.java$/),
    ]);
  });
});
