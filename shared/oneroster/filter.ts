// The `filter` query parameter of the OneRoster 1.2 REST binding (section 3.4.4 of the Rostering
// binding): one predicate `field<op>'value'`, or two joined by one `AND` or one `OR`. Fields may be dotted
// paths into objects and arrays (`roles.role`, `school.sourcedId`); an array matches when any element
// does. Date-time fields compare as instants and date fields as calendar dates; the rest as text.

import { isDate } from '../domain/dates';
import { parseInstant } from '../domain/instants';
import { isDecimal } from '../domain/numbers';
import { quote } from '../http/quote';
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

/**
 * The fields of the binding's DateTime type, and of its Date type, wherever they appear (by their last
 * segment, so `roles.beginDate` is a date too). Their values are checked when the filter is read.
 */
const dateTimeFields = new Set(['dateLastModified']);
const dateFields = new Set(['birthDate', 'startDate', 'endDate', 'beginDate']);
const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** The shape of a date, `YYYY-MM-DD`. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The instant of a date-time with a time zone, as the binding writes them (W3C profile), or NaN when it is not one. */
const instantOf = (text: string) => {
  const at = parseInstant(text);
  return at === undefined ? Number.NaN : Date.parse(at);
};

/** How a field's values compare: as instants, as dates, or as text. */
type Comparison = 'instant' | 'date' | 'text';
const comparisonOf = (field: string): Comparison => {
  const name = lastSegment(field);
  return dateTimeFields.has(name) ? 'instant' : dateFields.has(name) ? 'date' : 'text';
};

/** Refuses a value a date or date-time field can never be compared with. */
function checkValue({ field, operator, value }: Predicate): void {
  if (operator === '~') return;
  const comparison = comparisonOf(field);
  if (comparison === 'instant' && Number.isNaN(instantOf(value))) {
    throw invalid(
      `${quote(field)} is compared with an ISO 8601 date-time with a time zone, such as 2026-09-01T08:00:00Z, not ${quote(value)}.`,
    );
  }
  if (comparison === 'date' && !isDate(value)) {
    throw invalid(`${quote(field)} is compared with a date, YYYY-MM-DD, not ${quote(value)}.`);
  }
}

/** One predicate at `at`: a field path, an operator and a single-quoted value ('' inside for a quote). */
function readPredicate(text: string, at: number): { predicate: Predicate; end: number } {
  const field = /^\s*([A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*)\s*/.exec(text.slice(at));
  if (!field) throw invalid(`The filter has no field name at position ${at + 1}.`);
  const name = field[1] as string;
  let i = at + field[0].length;
  const operator = filterOperators.find((op) => text.startsWith(op, i));
  if (!operator) throw invalid(`The filter has no operator (=, !=, >, >=, <, <=, ~) after ${quote(name)}.`);
  i += operator.length;
  while (text[i] === ' ') i++;
  if (text[i] !== "'") throw invalid(`The value after ${quote(name)}${operator} must be in single quotes.`);
  let value = '';
  i++;
  for (;;) {
    if (i >= text.length) throw invalid(`The value after ${quote(name)}${operator} has no closing quote.`);
    if (text[i] === "'") {
      if (text[i + 1] !== "'") break;
      value += "'";
      i += 2;
    } else {
      value += text[i];
      i++;
    }
  }
  const predicate = { field: name, operator, value };
  checkValue(predicate);
  return { predicate, end: i + 1 };
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

/** The order of two values: a date-time by its instant (so .500Z is after :00Z), otherwise as text. */
function order(comparison: Comparison, actual: string, value: string): number {
  if (comparison === 'instant') return instantOf(actual) - instantOf(value);
  return actual < value ? -1 : actual > value ? 1 : 0;
}

function compare(actual: unknown, { field, operator, value }: Predicate): boolean {
  if (actual === null || actual === undefined || typeof actual === 'object') return false;
  const text = String(actual);
  if (operator === '~') return text.toLowerCase().includes(value.toLowerCase());
  const comparison = comparisonOf(field);
  // A stored value that is not a date where one is expected matches nothing but !=.
  if (comparison === 'instant' && Number.isNaN(instantOf(text))) return operator === '!=';
  if (comparison === 'date' && !DATE.test(text)) return operator === '!=';
  // A number (a weight, a score) against a number written in decimal is ordered as one: 100 is above 90,
  // and nothing reaches 1e400. Other text (`0x10`, `Infinity`) is compared as text, as for any field.
  const numeric = typeof actual === 'number' && isDecimal(value.trim());
  const sign = numeric ? Math.sign(actual - Number(value)) : order(comparison, text, value);
  switch (operator) {
    case '=':
      return sign === 0;
    case '!=':
      return sign !== 0;
    case '>':
      return sign > 0;
    case '>=':
      return sign >= 0;
    case '<':
      return sign < 0;
    case '<=':
      return sign <= 0;
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
