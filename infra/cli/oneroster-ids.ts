// The native id of a OneRoster sourcedId. A sourcedId that is a UUID (this service's own export) is kept;
// any other (a vendor's "stu-1042") becomes a UUIDv5 (RFC 9562) of its kind and value in the tenant's
// namespace, so every run of the same zip names the same records and references between files resolve.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The namespace each tenant's namespace is made in. Fixed for good: every derived id depends on it. */
const ROOT_NAMESPACE = '0b3c7e52-5f0e-4d8a-9a51-3c2f6e1d8b47';

/** A UUID version 5: the SHA-1 of the namespace's bytes and the name, with the version and variant bits. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * What a sourcedId names: an org and a user may share a sourcedId in a vendor's zip, and both become
 * entities, so the kind is part of the derived id.
 */
export type SourcedKind =
  | 'org'
  | 'user'
  | 'role'
  | 'academicSession'
  | 'course'
  | 'class'
  | 'enrollment'
  | 'category'
  | 'scoreScale'
  | 'lineItem'
  | 'result';

export class SourcedIds {
  private readonly namespace: string;

  constructor(tenantId: string) {
    this.namespace = uuidV5(ROOT_NAMESPACE, tenantId);
  }

  id(kind: SourcedKind, sourcedId: string): string {
    const trimmed = sourcedId.trim();
    return UUID.test(trimmed) ? trimmed.toLowerCase() : uuidV5(this.namespace, `${kind}:${trimmed}`);
  }
}
