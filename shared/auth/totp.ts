// Time-based one-time passwords (RFC 6238 on HOTP, RFC 4226): the second factor an operator can require
// of accounts with admin rights. Codes of 6 digits from HMAC-SHA-1 over 30-second steps, as every
// authenticator app reads an otpauth:// URI; a code of the step before or after is accepted too, for a
// clock that differs a little (RFC 6238 section 5.2). Secrets are 20 random bytes, base32 (RFC 4648).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** HOTP (RFC 4226 section 5.3): the dynamically truncated HMAC of the counter, as `digits` digits. */
export function hotp(
  key: Buffer,
  counter: number,
  digits = TOTP_DIGITS,
  algorithm: TotpAlgorithm = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac(algorithm, key).update(message).digest();
  const offset = (hmac[hmac.length - 1] as number) & 0xf;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of a moment (RFC 6238 section 4.2, T0 = 0). */
export const totpStep = (epochSeconds: number) => Math.floor(epochSeconds / TOTP_STEP_SECONDS);

/** The code of a time step. */
export const totp = (
  key: Buffer,
  epochSeconds: number,
  digits = TOTP_DIGITS,
  algorithm: TotpAlgorithm = 'sha1',
) => hotp(key, totpStep(epochSeconds), digits, algorithm);

/** The step whose code `code` is, among the current one and its neighbours, or undefined. */
export function matchingStep(secret: string, code: string, epochSeconds: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const key = base32Decode(secret);
  const now = totpStep(epochSeconds);
  for (const step of [now, now - 1, now + 1]) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return undefined;
}

export const newTotpSecret = () => base32Encode(randomBytes(20));

/** The otpauth:// URI authenticator apps read (from a QR code or pasted), naming the school and the account. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}
