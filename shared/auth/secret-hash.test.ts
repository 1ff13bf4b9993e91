import { describe, expect, it } from 'vitest';
import { hashSecret, verifySecret } from './secret-hash';

describe('client secret hashing (issue: read API, deliverable 5)', () => {
  it('verifies the secret it hashed and nothing else', async () => {
    const stored = await hashSecret('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifySecret('correct horse', stored)).toBe(true);
    expect(await verifySecret('correct horsE', stored)).toBe(false);
    expect(await verifySecret('', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('refuses unknown clients and malformed hashes', async () => {
    expect(await verifySecret('anything', undefined)).toBe(false);
    expect(await verifySecret('anything', 'plain-text')).toBe(false);
  });
});
