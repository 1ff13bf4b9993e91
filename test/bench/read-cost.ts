// Section 3, read cost: what one list page consumes at 1,000, 10,000 and 100,000 students, on the
// first page and after following 1 and 100 cursors, read through the repository the handlers use
// (with the read-capacity report on its client), and what a page=N jump costs on top, walking the keys
// index from the nearer end. DynamoDB Local reports
// ConsumedCapacity itself; beside it stands the figure computed from item sizes as DynamoDB bills
// reads (4 KB units, summed over the items a request reads, one unit strongly consistent, half
// eventually), so a Local quirk cannot pass unnoticed.
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/data/document-client';
import { keys } from '../../shared/data/keys';
import { offsetWalk } from '../../shared/data/pages';
import { reportReadCapacity } from '../../shared/data/read-capacity';
import { RecordRepository } from '../../shared/data/record-repository';
import { tableDesign } from '../../shared/data/table';
import type { Student } from '../../shared/schemas/records';
import { PAGE_ITEMS } from './bare-calls';
import type { SeededTable } from './seed-students';
import { round } from './stats';

const READ_UNIT_BYTES = 4096;

export interface PageCost {
  students: number;
  /** Cursors followed to reach the page (0: the first page). */
  depth: number;
  requests: number;
  /** Reported by DynamoDB Local for the page Query. */
  pageRcu: number;
  /** Computed from the sizes of the items the Query reads (the page and one more), strongly consistent. */
  computedPageRcu: number;
  /** The counter read that gives total_items, which every list also makes. */
  countRcu: number;
  totalRcu: number;
}

export interface JumpCost {
  students: number;
  page: number;
  /** Which end of the keys index the walk starts from: the nearer one. */
  from: 'front' | 'back';
  keysWalked: number;
  indexRequests: number;
  indexRcu: number;
  computedIndexRcu: number;
  pageRcu: number;
  totalRcu: number;
}

export interface ReadCost {
  itemBytes: number;
  keyEntryBytes: number;
  pages: PageCost[];
  jumps: JumpCost[];
  /** Every page read costs the same at every size and depth. */
  flat: boolean;
}

type Value = NativeAttributeValue;

/** An attribute value's size as DynamoDB counts it (names and values, 3 bytes per list or map, 1 per element). */
function valueSize(value: Value): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') {
    const digits = String(Math.abs(value))
      .replace(/[.-]|e.*$/g, '')
      .replace(/^0+/, '')
      .replace(/0+$/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (typeof value === 'boolean' || value === null) return 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v: Value) => sum + 1 + valueSize(v), 0);
  if (typeof value === 'object')
    return (
      3 +
      Object.entries(value as Record<string, Value>).reduce(
        (sum, [name, v]) => sum + Buffer.byteLength(name) + 1 + valueSize(v),
        0,
      )
    );
  return 0;
}

export function itemSize(item: Record<string, Value>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => (value === undefined ? sum : sum + Buffer.byteLength(name) + valueSize(value)),
    0,
  );
}

const units = (bytes: number, consistent: boolean) =>
  Math.ceil(bytes / READ_UNIT_BYTES) * (consistent ? 1 : 0.5);

interface Tally {
  requests: number;
  table: number;
  index: number;
}

function tally(reads: ConsumedCapacity[]): Tally {
  return {
    requests: reads.length,
    table: reads.reduce((sum, c) => sum + (c.Table?.CapacityUnits ?? 0), 0),
    index: reads.reduce(
      (sum, c) => sum + (c.GlobalSecondaryIndexes?.[tableDesign.keysIndex.name]?.CapacityUnits ?? 0),
      0,
    ),
  };
}

export async function measureReadCost(
  endpoint: string,
  tables: SeededTable[],
  template: Student,
): Promise<ReadCost> {
  const sample = { ...keys.record('students', template.student_id), ...template };
  const itemBytes = itemSize(sample);
  const key = keys.record('students', template.student_id);
  const keyEntryBytes = itemSize({ ...key });
  const pages: PageCost[] = [];
  const jumps: JumpCost[] = [];
  const reads: ConsumedCapacity[] = [];
  const client = createDocumentClient({ region: 'eu-west-1', endpoint });
  reportReadCapacity(client, (c) => reads.push(c));
  for (const table of tables) {
    const records = new RecordRepository(client, table.tableName);
    const measure = async (action: () => Promise<unknown>) => {
      reads.length = 0;
      await action();
      return tally(reads);
    };
    const count = await measure(() => records.count('students'));
    for (const depth of [0, 1, 100]) {
      const after = depth === 0 ? undefined : table.sortedIds[depth * PAGE_ITEMS - 1];
      if (depth > 0 && (after === undefined || depth * PAGE_ITEMS >= table.students)) continue;
      const page = await measure(() => records.listPage('students', { itemsPerPage: PAGE_ITEMS, after }));
      pages.push({
        students: table.students,
        depth,
        requests: page.requests + count.requests,
        pageRcu: page.table,
        computedPageRcu: units((PAGE_ITEMS + 1) * itemBytes, true),
        countRcu: count.table,
        totalRcu: page.table + count.table,
      });
    }
    const lastPage = Math.ceil(table.students / PAGE_ITEMS);
    for (const n of [...new Set([2, 20, 100, 1000, lastPage - 100, lastPage])]) {
      const skip = (n - 1) * PAGE_ITEMS;
      const walk = offsetWalk(skip, table.students);
      if (n < 2 || !walk) continue;
      // As a list request asks: with the group's size, which the count gives it, so it walks from the nearer end.
      const jump = await measure(() =>
        records.listPage('students', { itemsPerPage: PAGE_ITEMS, skip, size: table.students }),
      );
      jumps.push({
        students: table.students,
        page: n,
        from: walk.forward ? 'front' : 'back',
        keysWalked: walk.steps,
        indexRequests: jump.requests - 1,
        indexRcu: jump.index,
        computedIndexRcu: units(walk.steps * keyEntryBytes, false),
        pageRcu: jump.table,
        totalRcu: round(jump.index + jump.table + count.table, 1),
      });
    }
  }
  client.destroy();
  const first = pages[0]?.totalRcu;
  return { itemBytes, keyEntryBytes, pages, jumps, flat: pages.every((p) => p.totalRcu === first) };
}
