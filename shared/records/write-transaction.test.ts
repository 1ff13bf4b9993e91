// How a write that races other writers ends: retried until it commits, or refused with 409 once every
// attempt has lost, so contention never reaches the client as a failure of the service (contract.md §6).
import { describe, expect, it } from 'vitest';
import { StateConflictError } from '../domain/errors';
import type { HttpError } from '../http/errors';
import { httpErrorOf } from '../wiring/domain-errors';
import { Retry, retrying } from './write-transaction';

describe('retrying', () => {
  it('runs the write again after a race, and returns what it returns once it commits', async () => {
    let attempts = 0;
    const result = await retrying(async () => {
      attempts += 1;
      if (attempts < 3) throw new Retry();
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(attempts).toBe(3);
  });

  it('refuses with 409 a write that loses every race', async () => {
    let attempts = 0;
    const refused = await retrying(async () => {
      attempts += 1;
      throw new Retry();
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateConflictError);
    expect((httpErrorOf(refused) as HttpError).status).toBe(409);
    expect(attempts).toBe(12);
  });

  it('passes any other error on at once', async () => {
    let attempts = 0;
    const failure = new Error('not a race');
    await expect(
      retrying(async () => {
        attempts += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(attempts).toBe(1);
  });
});
