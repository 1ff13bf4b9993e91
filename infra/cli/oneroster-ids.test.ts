// Derived ids: RFC 9562's UUIDv5 test vector, UUIDs kept, and vendor ids stable per tenant and kind.
import { describe, expect, it } from 'vitest';
import { SourcedIds, uuidV5 } from './oneroster-ids';

describe('OneRoster sourcedIds as native ids', () => {
  it('makes UUIDv5 as RFC 9562 does', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('keeps a UUID, and derives the same id for the same tenant, kind and sourcedId only', () => {
    const ids = new SourcedIds('demo');
    expect(ids.id('user', 'A0B1C2D3-0000-4000-8000-000000000001')).toBe(
      'a0b1c2d3-0000-4000-8000-000000000001',
    );
    expect(ids.id('user', 'stu-1')).toBe(new SourcedIds('demo').id('user', 'stu-1'));
    expect(ids.id('user', 'stu-1')).not.toBe(ids.id('org', 'stu-1'));
    expect(ids.id('user', 'stu-1')).not.toBe(new SourcedIds('other').id('user', 'stu-1'));
    expect(ids.id('user', 'stu-1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
