// The CSV form of a group's records, one row per record: lists spread over numbered dotted columns
// (`addresses.0.city`, `student_ids.1`), the convention `npm run import` reads, so an export re-imports.
// Every CSV the service writes goes through `csvLine`, which keeps spreadsheet formulas inert.
import * as z from 'zod';
import type { RecordGroup } from '../domain/groups';
import { isDecimal } from '../domain/numbers';
import { recordSchemas } from '../schemas/records';

type Value = unknown;

interface ListField {
  /** How many entries the longest list of this field has. */
  width: number;
  /** The entries' fields, for lists of objects: the schema's first, then any other seen. */
  keys: string[] | undefined;
}

/**
 * Learns the columns a group's records need (the widest list of each field) while they stream past, then
 * turns each record into a row. Columns follow the specification's field order.
 */
export class CsvLayout {
  private readonly fields: string[];
  private readonly lists = new Map<string, ListField>();
  private readonly extra = new Set<string>();

  constructor(group: RecordGroup) {
    const shape = recordSchemas[group].shape as Record<string, z.ZodType>;
    this.fields = Object.keys(shape);
    for (const [field, schema] of Object.entries(shape)) {
      if (!(schema instanceof z.ZodArray)) continue;
      const element = schema.element;
      this.lists.set(field, {
        width: 0,
        keys: element instanceof z.ZodObject ? Object.keys(element.shape) : undefined,
      });
    }
  }

  observe(record: Record<string, Value>): void {
    for (const [field, value] of Object.entries(record)) {
      const list = this.lists.get(field);
      if (!list) {
        if (!this.fields.includes(field)) this.extra.add(field);
        continue;
      }
      if (!Array.isArray(value)) continue;
      list.width = Math.max(list.width, value.length);
      if (!list.keys) continue;
      for (const entry of value)
        if (entry && typeof entry === 'object')
          for (const key of Object.keys(entry)) if (!list.keys.includes(key)) list.keys.push(key);
    }
  }

  /** Every column as a path: the field, then for lists the entry's index and its field. */
  private columns(): (string | number)[][] {
    const columns: (string | number)[][] = [];
    for (const field of [...this.fields, ...[...this.extra].sort()]) {
      const list = this.lists.get(field);
      if (!list) {
        columns.push([field]);
        continue;
      }
      for (let i = 0; i < list.width; i++) {
        if (list.keys) for (const key of list.keys) columns.push([field, i, key]);
        else columns.push([field, i]);
      }
    }
    return columns;
  }

  header(): string {
    return csvLine(this.columns().map((path) => path.join('.')));
  }

  row(record: Record<string, Value>): string {
    return csvLine(
      this.columns().map((path) => {
        let value: Value = record;
        for (const step of path) value = (value as Record<string | number, Value> | undefined)?.[step];
        return cell(value);
      }),
    );
  }
}

function cell(value: Value): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Cells that get a leading `'`: those a spreadsheet takes as a formula (OWASP, "CSV Injection": staff
 * open these files in Excel, where a name such as `=HYPERLINK(...)` would run), and those that already
 * start with quotes before one of its characters, so that taking one quote off restores every cell.
 */
const NEUTRALISED = /^'*[=+\-@\t\r]/;

/**
 * The number a cell holds, written in decimal, blanks around it allowed; none for any other text, such
 * as `0x14`, `0b11`, `Infinity`, `1e400` or an empty cell, which `Number` would read otherwise.
 */
export function decimalIn(cell: string): number | undefined {
  const text = cell.trim();
  const value = Number(text);
  return isDecimal(text) && Number.isFinite(value) ? value : undefined;
}

/**
 * A cell a spreadsheet would read as a formula, made text by a leading `'`, as OWASP recommends. A plain
 * number (`-5`, `+0.5`, `-1e3`) is none: a spreadsheet reads it as the number and runs nothing, so a
 * negative score stays a number for every reader of the file.
 */
export const neutralised = (cell: string): string =>
  NEUTRALISED.test(cell) && !isDecimal(cell) ? `'${cell}` : cell;

/** A cell as it was before `neutralised`: how the imports read the service's own CSV back. */
export const restored = (cell: string): string =>
  cell.startsWith("'") && NEUTRALISED.test(cell.slice(1)) ? cell.slice(1) : cell;

/** A parsed CSV row with each cell `restored`. */
export const restoredCells = (row: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, restored(cell)]));

/**
 * One RFC 4180 line, CRLF at the end: every cell neutralised, and quoted when it was neutralised or holds
 * a quote, comma or line break.
 */
export function csvLine(cells: string[]): string {
  const quoted = (cell: string) => {
    const text = neutralised(cell);
    return text !== cell || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${cells.map(quoted).join(',')}\r\n`;
}
