// Validates a request body against its schema and turns every issue into an entry of a 400 problem:
// the field's path and why, with a hint where an unknown field is close to a known one.
import type * as z from 'zod/mini';
import { BadRequestError, type InvalidParam } from './errors';

/** Edit distance, to suggest `ative` for `active` and `bankAccounts` for `bankaccounts`. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The known field closest to `name`, never `name` itself (refused as it is, it is no hint). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const folded = name.toLowerCase().replace(/[-_\s]/g, '');
  let best: { field: string; score: number } | undefined;
  for (const field of known) {
    if (field === name) continue;
    const score = field.toLowerCase().replace(/[-_\s]/g, '') === folded ? 0 : distance(name, field);
    if (score <= 2 && (!best || score < best.score)) best = { field, score };
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
          name: pathName([...issue.path, key]),
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
