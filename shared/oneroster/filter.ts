// The `filter` query parameter of the OneRoster 1.2 REST binding (section 3.4.4 of the Rostering
// binding): one predicate `field<op>'value'`, or two joined by one `AND` or one `OR`. Fields may be dotted
// paths into objects and arrays (`roles.role`, `school.sourcedId`); an array matches when any element
// does. Values are compared as strings, which orders the binding's dates and timestamps correctly.
import { OneRosterError } from './status-info';

export const filterOperators = ['!=', '>=', '<=', '=', '>', '<', '~'] as const;
export type FilterOperator = (typeof filterOperators)[number];

export interface Predicate {
  field: string;
  operator: FilterOperator;
  value: string;
}

export interface Filter {
  predicates: [Predicate] | [Predicate, Predicate];
  logic: 'AND' | 'OR';
}

const invalid = (detail: string) => new OneRosterError(400, 'invalid_filter_field', detail);

/** One predicate at `at`: a field path, an operator and a single-quoted value ('' inside for a quote). */
function readPredicate(text: string, at: number): { predicate: Predicate; end: number } {
  const field = /^\s*([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)\s*/.exec(text.slice(at));
  if (!field) throw invalid(`The filter has no field name at position ${at + 1}.`);
  let i = at + field[0].length;
  const operator = filterOperators.find((op) => text.startsWith(op, i));
  if (!operator) throw invalid(`The filter has no operator (=, !=, >, >=, <, <=, ~) after ${field[1]}.`);
  i += operator.length;
  while (text[i] === ' ') i++;
  if (text[i] !== "'") throw invalid(`The value after ${field[1]}${operator} must be in single quotes.`);
  let value = '';
  i++;
  for (;;) {
    if (i >= text.length) throw invalid(`The value after ${field[1]}${operator} has no closing quote.`);
    if (text[i] === "'") {
      if (text[i + 1] !== "'") break;
      value += "'";
      i += 2;
    } else {
      value += text[i];
      i++;
    }
  }
  return { predicate: { field: field[1] as string, operator, value }, end: i + 1 };
}

export function parseFilter(text: string): Filter {
  const first = readPredicate(text, 0);
  const rest = text.slice(first.end);
  if (rest.trim() === '') return { predicates: [first.predicate], logic: 'AND' };
  const logic = /^\s+(AND|OR)\s+/.exec(rest);
  if (!logic) throw invalid('Predicates are joined by one AND or one OR, with spaces around it.');
  const second = readPredicate(text, first.end + logic[0].length);
  if (text.slice(second.end).trim() !== '') {
    throw invalid('A filter takes at most two predicates joined by one AND or OR.');
  }
  return { predicates: [first.predicate, second.predicate], logic: logic[1] as 'AND' | 'OR' };
}

/** The values at a dotted path: arrays are walked into, so `roles.role` gives every role's role. */
export function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (value === undefined) return [];
  if (path.length === 0) return Array.isArray(value) ? value : [value];
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, path));
  if (value === null || typeof value !== 'object') return [];
  const [head, ...tail] = path as [string, ...string[]];
  return valuesAt((value as Record<string, unknown>)[head], tail);
}

function compare(actual: unknown, { operator, value }: Predicate): boolean {
  if (actual === null || actual === undefined || typeof actual === 'object') return false;
  const text = String(actual);
  switch (operator) {
    case '=':
      return text === value;
    case '!=':
      return text !== value;
    case '>':
      return text > value;
    case '>=':
      return text >= value;
    case '<':
      return text < value;
    case '<=':
      return text <= value;
    case '~':
      return text.toLowerCase().includes(value.toLowerCase());
  }
}

/** Whether one predicate holds: for `!=`, no value at the path may equal; otherwise one value must match. */
export function holds(record: unknown, predicate: Predicate): boolean {
  const values = valuesAt(record, predicate.field.split('.'));
  if (predicate.operator === '!=') return values.every((v) => compare(v, predicate));
  return values.some((v) => compare(v, predicate));
}

export function matches(record: unknown, filter: Filter): boolean {
  return filter.logic === 'AND'
    ? filter.predicates.every((p) => holds(record, p))
    : filter.predicates.some((p) => holds(record, p));
}

/** The fields a filter names, by their first segment, to check against what a collection has. */
export const filterFields = (filter: Filter) => filter.predicates.map((p) => p.field);
