// Conditional requests on records (RFC 9110 section 13): If-Match on writes, If-None-Match on reads.
// A record's entity tag is its version, quoted.
import { BadRequestError } from './errors';

export type EntityTagCondition = { any: true } | { any: false; versions: number[] };

/** Parses an If-Match or If-None-Match value: `*` or a list of entity tags (weak tags never match a version). */
export function parseEntityTags(name: string, value: string | undefined): EntityTagCondition | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '*') return { any: true };
  const versions: number[] = [];
  for (const part of trimmed.split(',')) {
    const tag = part.trim();
    const match = /^(W\/)?"([^"]*)"$/.exec(tag);
    if (!match) {
      throw new BadRequestError(`${name} must be * or a list of quoted entity tags.`, [
        { name, in: 'header', reason: 'not an entity tag list' },
      ]);
    }
    if (!match[1] && /^[1-9][0-9]{0,9}$/.test(match[2] ?? '')) versions.push(Number(match[2]));
  }
  return { any: false, versions };
}

/** Whether a condition holds for a record at a version. */
export const matches = (condition: EntityTagCondition, version: number) =>
  condition.any || condition.versions.includes(version);

/** Whether a GET may answer 304: If-None-Match compares weakly (RFC 9110 section 13.1.2). */
export function notModified(value: string | undefined, version: number): boolean {
  if (value === undefined) return false;
  if (value.trim() === '*') return true;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${version}"`);
}
