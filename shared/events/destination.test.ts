// Where events may be sent (issue "change events", part 3: only https to public addresses deployed,
// private and link-local ranges refused at subscription and at delivery; loopback in the local run only).
import { describe, expect, it } from 'vitest';
import { allowedAddress, allowedLiteralHost, guardedLookup, refusedDestination } from './destination';

const deployed = { loopback: false };
const local = { loopback: true };

describe('webhook destinations', () => {
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '224.0.0.1',
  ])('refuses %s deployed', (address) => {
    expect(allowedAddress(address, deployed)).toBe(false);
  });

  it('allows public addresses, and loopback only in the local run', () => {
    expect(allowedAddress('93.184.216.34', deployed)).toBe(true);
    expect(allowedAddress('2606:4700::6810:85e5', deployed)).toBe(true);
    expect(allowedAddress('127.0.0.1', local)).toBe(true);
    expect(allowedAddress('::1', local)).toBe(true);
    expect(allowedAddress('10.0.0.1', local)).toBe(false);
    expect(allowedAddress('169.254.169.254', local)).toBe(false);
  });

  it.each([
    ['http://93.184.216.34/hook', 'must be an https URL'],
    ['https://10.1.2.3/hook', 'not a public address'],
    ['https://[::1]/hook', 'not a public address'],
    ['https://169.254.169.254/latest/meta-data', 'not a public address'],
    ['https://user:pw@93.184.216.34/', 'credentials'],
    ['https://localhost/hook', 'not a public address'],
    ['not a url', 'absolute URL'],
    [`https://93.184.216.34/${'a'.repeat(2000)}`, 'longer than'],
    ['https://name.invalid/hook', 'does not resolve'],
  ])('refuses %s deployed', async (url, reason) => {
    expect(await refusedDestination(url, deployed)).toContain(reason);
  });

  it('takes a loopback receiver in the local run, over http too, but no private address', async () => {
    expect(await refusedDestination('http://127.0.0.1:8080/hook', local)).toBeUndefined();
    expect(await refusedDestination('http://localhost:8080/hook', local)).toBeUndefined();
    expect(await refusedDestination('https://93.184.216.34/hook', local)).toBeUndefined();
    expect(await refusedDestination('http://93.184.216.34/hook', local)).toBe('must be an https URL');
    expect(await refusedDestination('http://192.168.0.10/hook', local)).toContain('not a public address');
  });

  it('refuses at connection time a name that resolves inside, and a literal one', async () => {
    const lookup = guardedLookup(deployed);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (e) => resolve(e)),
    );
    expect(error?.code).toBe('EADDRNOTALLOWED');
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(local)('localhost', {}, (e, address) => resolve(e ?? address)),
    );
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(allowedLiteralHost(new URL('https://10.0.0.8/x'), deployed)).toBe(false);
    expect(allowedLiteralHost(new URL('https://[::ffff:7f00:1]/x'), deployed)).toBe(false);
    expect(allowedLiteralHost(new URL('https://example.org/x'), deployed)).toBe(true);
  });
});
