// What a list may be narrowed to (issue 14): records with a processnumber or an e-mail address (exact
// match), active or not, and the fields `fields=` selects. Each lookup is served by one read of a key:
// a processnumber by its claim item, an e-mail address by the `emails` index; `ative` alone is a
// filtered Query of the group (docs/api.md gives its cost).

import { InvalidInputError } from '../domain/errors';
import { groups, idFields, type RecordGroup } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import { quote } from '../http/quote';
import type { QueryParams } from '../http/request';

export interface ListFilters {
  processnumber?: string;
  email?: string;
  ative?: boolean;
}

/**
 * The query parameters a group's list takes to narrow it: only those naming a field its records have
 * (a course has no e-mail address), so the others get the usual 400 for an unknown parameter.
 */
export const filterParameters = (group: RecordGroup): string[] => [
  ...(groups[group].processnumber ? ['processnumber'] : []),
  ...(['email', 'ative'] as const).filter((field) => recordFields[group].includes(field)),
];

/** The filters a list request asks for; none when it asks for none. */
export function parseFilters(group: RecordGroup, query: QueryParams): ListFilters | undefined {
  const filters: ListFilters = {};
  for (const name of filterParameters(group)) {
    const value = query.get(name);
    if (value === undefined) continue;
    if (name === 'ative') {
      if (value !== 'true' && value !== 'false') {
        throw new InvalidInputError('ative must be true or false.', [
          { name, in: 'query', reason: 'must be true or false' },
        ]);
      }
      filters.ative = value === 'true';
    } else if (value === '') {
      throw new InvalidInputError(`${name} must not be empty.`, [{ name, in: 'query', reason: 'is empty' }]);
    } else {
      filters[name as 'processnumber' | 'email'] = value;
    }
  }
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** Whether a record passes every filter (a looked-up record is checked again: an index may lag). */
export function passes(record: object, filters: ListFilters): boolean {
  const fields = record as Record<string, unknown>;
  return (Object.keys(filters) as (keyof ListFilters)[]).every(
    (name) => filters[name] === undefined || fields[name] === filters[name],
  );
}

/**
 * The fields `fields=` selects (comma-separated, the specification's names), with the id field always,
 * so a page still says which record each is and where the next one starts; none when it selects none.
 */
export function parseFields(group: RecordGroup, query: QueryParams): readonly string[] | undefined {
  const raw = query.get('fields');
  if (raw === undefined) return undefined;
  const known = recordFields[group];
  const asked = raw.split(',').map((name) => name.trim());
  const unknown = asked.filter((name) => !known.includes(name)).map(quote);
  if (unknown.length > 0 || raw.trim() === '') {
    throw new InvalidInputError(`fields names ${unknown.length > 0 ? unknown.join(', ') : 'nothing'}.`, [
      {
        name: 'fields',
        in: 'query',
        reason: `${unknown.length > 0 ? `unknown: ${unknown.join(', ')}` : 'empty'}; a comma-separated list of: ${known.join(', ')}`,
      },
    ]);
  }
  return known.filter((name) => name === idFields[group] || asked.includes(name));
}

/** A record with only the selected fields, in the specification's order. */
export function select<T extends object>(record: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields) return record;
  const all = record as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((name) => name in all).map((name) => [name, all[name]]),
  ) as Partial<T>;
}
