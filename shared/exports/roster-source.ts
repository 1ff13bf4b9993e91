// What the OneRoster zips are made from, and what they are made of: the run's records of a group, read
// again a record at a time whenever a table needs them, and rows, each with when what it says last
// changed (a delta keeps the rows changed after its start). Nothing here holds a group whole.
import type { Readable } from 'node:stream';
import type { RecordGroup } from '../domain/groups';
import type { GroupRecords } from '../schemas/records';
import { fileNames } from './manifest';
import { ndjsonLines } from './ndjson';
import type { ExportStore } from './store';

/**
 * The groups the CSV binding has no table for: attendance (OneRoster has none), and the assessments,
 * which its REST binding alone carries.
 */
const outsideBinding = ['attendance', 'assessment_line_items', 'assessment_results'] as const;

export type RosterGroup = Exclude<RecordGroup, (typeof outsideBinding)[number]>;

/** The records of a group, from the first, each time it is called. */
export type RosterSource = <G extends RosterGroup>(group: G) => AsyncIterable<GroupRecords[G]>;

/** The records of an export run's NDJSON files in its store. */
export function storeSource(store: ExportStore): RosterSource {
  return async function* <G extends RosterGroup>(group: G): AsyncGenerator<GroupRecords[G]> {
    const body: Readable | undefined = await store.read(fileNames.ndjson(group));
    if (!body) throw new Error(`${fileNames.ndjson(group)} was not found after it was written.`);
    for await (const line of ndjsonLines(body)) if (line) yield JSON.parse(line) as GroupRecords[G];
  };
}

/** A row of a OneRoster CSV table, by column. */
export type Row = Partial<Record<string, string>>;

/** A row, and when what it says last changed. */
export interface DatedRow {
  row: Row;
  at: string;
}

/** A table's rows, made anew from the records each time they are asked for. */
export type Rows<R> = () => AsyncIterable<R>;

/** The rows of a list in hand. */
export const rowsOf = <T, R>(list: readonly T[], row: (item: T) => R | undefined): Rows<R> =>
  async function* () {
    for (const item of list) {
      const made = row(item);
      if (made !== undefined) yield made;
    }
  };

/** The rows of a group's records, read again. */
export const rowsRead = <G extends RosterGroup, R>(
  read: RosterSource,
  group: G,
  rows: (record: GroupRecords[G]) => Iterable<R>,
): Rows<R> =>
  async function* () {
    for await (const record of read(group)) yield* rows(record);
  };
