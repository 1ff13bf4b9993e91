// Identification-document numbers and bank-account numbers are the values of a person's record whose
// leak does harm on its own (identity fraud, direct debits): a reader sees them masked unless its token
// carries the group's `<group>:read:sensitive` scope. The fields stay, so clients keep their shape; only
// the number itself is masked, to `****` and its last four characters (a clerk can still tell which
// account or document is meant). Values of eight characters or fewer are masked whole, as `****`.
// Exports (shared/exports/) read the table directly and keep every value.
import type { AccessToken } from '../auth/access-token';
import { isDocumentGroup, type RecordGroup, sensitiveScope } from '../domain/groups';

export const MASK = '****';

/** The masked form of a document or account number. */
export const maskValue = (value: string): string => (value.length > 8 ? `${MASK}${value.slice(-4)}` : MASK);

/** The masked fields, by list, as the OpenAPI description and docs/privacy.md name them. */
export const maskedFields = {
  documents: 'identification_document_value',
  bankAccounts: 'back_account_number',
} as const;

/** Whether a token reads a group's sensitive values unmasked; a group without any has none to mask. */
export const readsSensitive = (auth: AccessToken | undefined, group: RecordGroup): boolean =>
  !isDocumentGroup(group) || (auth?.scopes.includes(sensitiveScope(group)) ?? false);

function maskList(list: unknown, field: string): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((element: Record<string, unknown>) => {
    const value = element?.[field];
    return typeof value === 'string' ? { ...element, [field]: maskValue(value) } : element;
  });
}

/** A copy of a record with its document and account numbers masked; the record itself is left alone. */
export function maskRecord<T>(record: T): T {
  const fields = record as Record<string, unknown>;
  const masked: Record<string, unknown> = { ...fields };
  for (const [list, field] of Object.entries(maskedFields)) {
    if (list in fields) masked[list] = maskList(fields[list], field);
  }
  return masked as T;
}

/** What a token may see of a group's records: them as they are, or masked. */
export const sensitiveView = (auth: AccessToken | undefined, group: RecordGroup) =>
  readsSensitive(auth, group) ? <T>(record: T): T => record : maskRecord;
