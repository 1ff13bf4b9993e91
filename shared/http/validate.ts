// Validates a request body against its schema and turns every issue into an entry of a 400 problem:
// the field's path and why, with a hint where an unknown field is close to a known one.
import type * as z from 'zod/mini';
import { BadRequestError, type InvalidParam } from './errors';
import { quote } from './quote';

/** How far a name may be from a known field for the field to be offered as a hint. */
const HINT_DISTANCE = 2;

/**
 * Edit distance, to suggest `ative` for `active` and `bankAccounts` for `bankaccounts`, up to `limit`:
 * any distance beyond it is reported as `limit + 1`. Names whose lengths differ by more than the limit
 * are never compared, and a row whose every cell is past the limit ends the walk, so a name of any
 * length costs at most a few rows of work against each known field.
 */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
      least = Math.min(least, row[j] as number);
    }
    if (least > limit) return limit + 1;
  }
  return Math.min(row[b.length] as number, limit + 1);
}

const folded = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');

/** The known field closest to `name`, never `name` itself (refused as it is, it is no hint). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const foldedName = folded(name);
  // Folding only removes characters: a name that folds this long is neither a known field folded nor
  // within the hint distance of one, and is not compared at all.
  if (foldedName.length > Math.max(0, ...known.map((field) => field.length)) + HINT_DISTANCE)
    return undefined;
  let best: { field: string; score: number } | undefined;
  for (const field of known) {
    if (field === name) continue;
    const score = folded(field) === foldedName ? 0 : boundedDistance(name, field, HINT_DISTANCE);
    if (score <= HINT_DISTANCE && (!best || score < best.score)) best = { field, score };
  }
  return best?.field;
}

const pathName = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (name, key) =>
      typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key),
    '',
  );

function reason(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return issue.input === undefined
      ? 'is required'
      : `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
  }
  if (issue.code === 'invalid_value' && issue.values.length <= 1) return `must be ${String(issue.values[0])}`;
  return issue.message;
}

export function validateBody<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  knownFields: readonly string[],
): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('The body must be a JSON object.', [
      { name: 'body', in: 'body', reason: 'not a JSON object' },
    ]);
  }
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  const invalid: InvalidParam[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = closest(key, knownFields);
        invalid.push({
          name: pathName([...issue.path, quote(key)]),
          in: 'body',
          reason: knownFields.includes(key)
            ? 'not taken here: the service sets it, or it belongs to another kind of record'
            : hint
              ? `unknown field; did you mean ${hint}?`
              : 'unknown field',
        });
      }
    } else {
      invalid.push({ name: pathName(issue.path) || 'body', in: 'body', reason: reason(issue) });
    }
  }
  throw new BadRequestError(
    `The body is not valid: ${invalid.length} problem${invalid.length > 1 ? 's' : ''}.`,
    invalid,
  );
}
