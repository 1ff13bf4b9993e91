// RFC 6238 Appendix B's test vectors (8 digits; the seeds are the ASCII strings the RFC gives, sized to
// each hash), and the base32 of RFC 4648 section 10.
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, matchingStep, otpauthUri, totp } from './totp';

const seeds = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};

const vectors: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(vectors)(
    'at %i s gives the RFC codes for SHA-1, SHA-256 and SHA-512',
    (time, sha1, sha256, sha512) => {
      expect(totp(seeds.sha1, time, 8, 'sha1')).toBe(sha1);
      expect(totp(seeds.sha256, time, 8, 'sha256')).toBe(sha256);
      expect(totp(seeds.sha512, time, 8, 'sha512')).toBe(sha512);
    },
  );

  it('encodes and decodes base32 as RFC 4648 section 10 does', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(Buffer.from('fooba'))).toBe('MZXW6YTB');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
  });

  it('accepts the code of the current step and its neighbours, nothing further and no malformed code', () => {
    const secret = base32Encode(seeds.sha1);
    const now = 1_111_111_111;
    const code = (at: number) => totp(seeds.sha1, at);
    expect(matchingStep(secret, code(now), now)).toBe(Math.floor(now / 30));
    expect(matchingStep(secret, code(now - 30), now)).toBe(Math.floor(now / 30) - 1);
    expect(matchingStep(secret, code(now + 30), now)).toBe(Math.floor(now / 30) + 1);
    expect(matchingStep(secret, code(now - 90), now)).toBeUndefined();
    expect(matchingStep(secret, '12345', now)).toBeUndefined();
    expect(matchingStep(secret, 'abcdef', now)).toBeUndefined();
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('MZXW6YTBOI', 'Escola Norte', 'admin@example.org'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('MZXW6YTBOI');
    expect(uri.searchParams.get('issuer')).toBe('Escola Norte');
    expect(uri.searchParams.get('digits')).toBe('6');
  });
});
