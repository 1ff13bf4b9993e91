// A record read without `<group>:read:sensitive` carries its document and account numbers masked
// (sensitive-fields.ts), and a client sends it back with PUT as it read it. A masked number in a replace
// body means "keep the number this entry has": it gets back the stored number of the entry it came from,
// which is the stored entry whose number masks to it and whose other fields are the same (wherever the
// entry now stands in its list, so entries may be removed or reordered), or else the stored entry at the
// same position whose number masks to it (its dates or type changed, its number kept). Each stored entry
// gives its number back once. Any other masked value (one matching no stored entry, or one in a create) is
// refused with 400 naming it: it would store `****` as a number. A value is taken as masked when it
// starts with `****`, which no IBAN does and no issuer's document number does.
import { isDeepStrictEqual } from 'node:util';
import { type FieldProblem, InvalidInputError } from '../domain/errors';
import { MASK, maskedFields, maskValue } from './sensitive-fields';

type Entry = Record<string, unknown>;

/** The body's lists that carry masked numbers: the stored list each comes from, and the masked field. */
const bodyLists = [
  { key: 'documents', stored: 'documents', field: maskedFields.documents },
  { key: 'bankAccounts', stored: 'bankAccounts', field: maskedFields.bankAccounts },
  // The specification's other spelling of the bank-account list (shared/schemas/requests.ts).
  { key: 'bank_accounts', stored: 'bankAccounts', field: maskedFields.bankAccounts },
] as const;

const looksMasked = (value: unknown): value is string => typeof value === 'string' && value.startsWith(MASK);

const isEntry = (value: unknown): value is Entry =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const entriesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const unmatchedReason =
  'is masked and matches no stored value of this record: send the full value, or the masked value as it was read, in its entry';
const createdReason = 'is masked: send the full value';

const refusal = (name: string, reason = unmatchedReason): FieldProblem => ({ name, in: 'body', reason });

function refuse(refused: FieldProblem[]): void {
  if (refused.length === 0) return;
  throw new InvalidInputError(
    'The body carries masked values the record does not have. If the record changed since you read it, read it again.',
    refused,
  );
}

/** Whether a body carries any masked-looking number, so a replace has to read the record to restore it. */
export function carriesMasked(body: unknown): boolean {
  if (!isEntry(body)) return false;
  return bodyLists.some(({ key, field }) =>
    entriesOf(body[key]).some((entry) => isEntry(entry) && looksMasked(entry[field])),
  );
}

/** Whether a submitted entry is the stored one as read: the same masked number, the other fields equal. */
const sameEntry = (sent: Entry, stored: Entry, field: string) =>
  maskValue(String(stored[field])) === sent[field] &&
  [...new Set([...Object.keys(sent), ...Object.keys(stored)])]
    .filter((name) => name !== field)
    .every((name) => isDeepStrictEqual(sent[name], stored[name]));

/** A list with its masked numbers given back from the stored list, and the names of those matching none. */
function restoreList(key: string, field: string, sent: unknown[], stored: unknown[]) {
  const used = new Set<number>();
  const restored = [...sent];
  const storedEntry = (j: number) => (isEntry(stored[j]) ? (stored[j] as Entry) : undefined);
  const take = (i: number, j: number) => {
    used.add(j);
    restored[i] = { ...(sent[i] as Entry), [field]: storedEntry(j)?.[field] };
  };
  const masked = sent.flatMap((entry, i) => (isEntry(entry) && looksMasked(entry[field]) ? [i] : []));
  const unmatched = masked.filter((i) => {
    const entry = sent[i] as Entry;
    const candidates = stored
      .map((_, j) => j)
      .filter((j) => !used.has(j) && storedEntry(j) && sameEntry(entry, storedEntry(j) as Entry, field));
    const j = candidates.includes(i) ? i : candidates[0];
    if (j === undefined) return true;
    take(i, j);
    return false;
  });
  const refused = unmatched.filter((i) => {
    const same = storedEntry(i);
    if (used.has(i) || !same || maskValue(String(same[field])) !== (sent[i] as Entry)[field]) return true;
    take(i, i);
    return false;
  });
  return { restored, refused: refused.map((i) => refusal(`${key}[${i}].${field}`)) };
}

/**
 * A replace body with its masked numbers given back from the current record (see the top of this
 * file); 400 naming every masked value that matches no stored one.
 */
export function restoreMasked(body: unknown, current: object): unknown {
  if (!isEntry(body)) return body;
  const stored = current as Entry;
  const restored: Entry = { ...body };
  const refused: FieldProblem[] = [];
  for (const { key, stored: storedKey, field } of bodyLists) {
    if (!Array.isArray(body[key])) continue;
    const list = restoreList(key, field, body[key], entriesOf(stored[storedKey]));
    restored[key] = list.restored;
    refused.push(...list.refused);
  }
  refuse(refused);
  return restored;
}

/** Refuses masked numbers in a body that has no stored record to take them from (a create). */
export const refuseMasked = (body: unknown): void => {
  if (!isEntry(body)) return;
  refuse(
    bodyLists.flatMap(({ key, field }) =>
      entriesOf(body[key]).flatMap((entry, i) =>
        isEntry(entry) && looksMasked(entry[field]) ? [refusal(`${key}[${i}].${field}`, createdReason)] : [],
      ),
    ),
  );
};

/** Refuses a masked number in a document added on its own. */
export const refuseMaskedDocument = (body: unknown): void =>
  refuse(
    isEntry(body) && looksMasked(body[maskedFields.documents])
      ? [refusal(maskedFields.documents, createdReason)]
      : [],
  );
