// Reads import files into rows with the line each came from: CSV (nested lists in dotted columns such
// as `addresses.0.city`), a JSON array (or a list envelope), or NDJSON.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import * as z from 'zod';
import { decimalIn, restoredCells } from '../../shared/exports/csv';
import { recordSchemas } from '../../shared/schemas/records';

export type Format = 'csv' | 'json' | 'ndjson';

export interface Row {
  line: number;
  value: unknown;
  /** Why the row could not even be read. */
  error?: string;
}

export function formatOf(file: string): Format | undefined {
  const extension = file.toLowerCase().split('.').at(-1);
  if (extension === 'csv') return 'csv';
  if (extension === 'json') return 'json';
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  return undefined;
}

/** Whether a record field holds a value of this zod type, or null. */
const holds = (field: z.ZodType, type: typeof z.ZodNumber | typeof z.ZodBoolean) =>
  field instanceof type || (field instanceof z.ZodNullable && field.unwrap() instanceof type);

/** The columns whose cells hold values of a type in some group's records, found in the record schemas. */
const columnsHolding = (type: typeof z.ZodNumber | typeof z.ZodBoolean) =>
  new Set(
    Object.values(recordSchemas).flatMap((schema) =>
      Object.entries(schema.shape as Record<string, z.ZodType>)
        .filter(([, field]) => holds(field, type))
        .map(([name]) => name),
    ),
  );

/** `ative`, `deceased`, `primary`. */
const BOOLEAN_COLUMNS = columnsHolding(z.ZodBoolean);
/** A category's weight, a scale's range; a cell that is no number stays text. */
const NUMBER_COLUMNS = columnsHolding(z.ZodNumber);

/** A cell as the record holds it: a boolean or a number where the column holds one, else the text. */
function cellValue(column: string, cell: string): unknown {
  if (BOOLEAN_COLUMNS.has(column) && (cell === 'true' || cell === 'false')) return cell === 'true';
  if (NUMBER_COLUMNS.has(column)) return decimalIn(cell) ?? cell;
  return cell;
}

/**
 * A segment of a dotted column that is a list index: a few digits, as many as a record's lists could hold
 * (`addresses.999999999.city` is a key, which validation refuses, not a list a billion long).
 */
const INDEX = /^\d{1,3}$/;

/**
 * Turns dotted CSV columns into nested objects and lists; empty cells are left out. The objects have no
 * prototype, so a column named `__proto__.x` or `constructor.prototype.y` is a field like any other (which
 * validation refuses as unknown), never a way into Object.prototype.
 */
export function unflatten(record: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [column, cell] of Object.entries(record)) {
    if (cell === '') continue;
    const path = column.split('.');
    let node: Record<string, unknown> | unknown[] = out;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const key = INDEX.test(segment) ? Number(segment) : segment;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[key] = cellValue(column, cell);
        return;
      }
      container[key] ??= INDEX.test(path[i + 1] ?? '') ? [] : Object.create(null);
      node = container[key] as Record<string, unknown> | unknown[];
    });
  }
  for (const [key, value] of Object.entries(out)) {
    if (Array.isArray(value)) out[key] = value.filter((entry) => entry !== undefined);
  }
  return out;
}

/**
 * A quote inside an unquoted cell is the cell's own text (`=HYPERLINK("…")` as a spreadsheet writes it),
 * and a row of more or fewer cells than the header is read, to be refused by its line, not to stop the
 * import: its cells would be in the wrong columns (an unquoted comma).
 */
const csvOptions = {
  columns: true,
  bom: true,
  info: true,
  skip_empty_lines: true,
  relax_quotes: true,
  relax_column_count: true,
} as const;

type CsvRecord = { record: Record<string, string>; info: { lines: number; invalid_field_length: number } };

async function* csvRows(file: string): AsyncGenerator<Row> {
  let uneven = 0;
  for await (const { record, info } of createReadStream(file).pipe(
    parse(csvOptions),
  ) as AsyncIterable<CsvRecord>) {
    // csv-parse counts the rows of another length so far in `invalid_field_length`.
    if (info.invalid_field_length !== uneven) {
      uneven = info.invalid_field_length;
      yield {
        line: info.lines,
        value: undefined,
        error: 'has another number of cells than the header (quote a cell that holds a comma)',
      };
      continue;
    }
    yield { line: info.lines, value: unflatten(restoredCells(record)) };
  }
}

/** A file that is not CSV a reader can follow (a quote never closed): refused whole, before any row is read. */
export class NotCsvError extends Error {}

/** Refuses, before anything is written, a CSV file that the reader would stop in the middle of. */
async function refuseUnreadableCsv(file: string): Promise<void> {
  try {
    for await (const _ of createReadStream(file).pipe(parse(csvOptions)));
  } catch (error) {
    throw new NotCsvError(
      `${file} is not readable as CSV (${(error as Error).message}). Nothing was written.`,
    );
  }
}

async function* ndjsonRows(file: string): AsyncGenerator<Row> {
  let line = 0;
  for await (const text of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch {
      yield { line, value: undefined, error: 'not valid JSON' };
    }
  }
}

async function* jsonRows(file: string, group: string): AsyncGenerator<Row> {
  const text = await readFile(file, 'utf8');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    yield { line: 1, value: undefined, error: `the file is not valid JSON (${(error as Error).message})` };
    return;
  }
  const envelope = document as Record<string, unknown> | null;
  const list = Array.isArray(document)
    ? document
    : Array.isArray(envelope?.[group])
      ? (envelope?.[group] as unknown[])
      : undefined;
  if (!list) {
    yield {
      line: 1,
      value: undefined,
      error: `expected an array of records or an object with a "${group}" array`,
    };
    return;
  }
  // Records of a JSON array are numbered by the line they start on when the file has one per line.
  const starts = [...text.matchAll(/^\s*\{/gm)].map((m) => text.slice(0, m.index).split('\n').length);
  for (const [i, value] of list.entries())
    yield { line: starts.length === list.length ? (starts[i] as number) : i + 1, value };
}

/** A file that is not UTF-8 text: refused whole, before any of its rows is read. */
export class NotUtf8Error extends Error {}

/** Why a file that is not UTF-8 text is refused. */
export const notUtf8 = (name: string) =>
  `${name} is not UTF-8 text: save it as UTF-8 (a spreadsheet's "CSV UTF-8") and import it again. Nothing was written.`;

/** Whether bytes are UTF-8 text (a file in Latin-1 or Windows-1252 is not, once it holds an accented letter). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a file that is not UTF-8 text, read through once first: read as UTF-8, each of its accented
 * letters would come back as U+FFFD, and be written so.
 */
async function refuseNotUtf8(file: string): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw new NotUtf8Error(notUtf8(file));
    throw error;
  }
}

export async function* readRows(file: string, format: Format, group: string): AsyncGenerator<Row> {
  await refuseNotUtf8(file);
  if (format === 'csv') {
    await refuseUnreadableCsv(file);
    yield* csvRows(file);
  } else if (format === 'ndjson') yield* ndjsonRows(file);
  else yield* jsonRows(file, group);
}
