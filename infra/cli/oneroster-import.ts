// Loads a OneRoster zip's phases (oneroster-rows.ts) through the record writer: the rows of a phase
// `concurrency` at a time (one at a time where they name each other), a row's writes in order, stopping
// at the first refused. A row written in two phases (a user and, later, their tutor record) is one row.
import type { RecordRepository } from '../../shared/data/record-repository';
import type { RecordGroup } from '../../shared/domain/groups';
import type { RecordWriter } from '../../shared/records/record-writer';
import { knownFields } from '../../shared/records/write-records';
import type { SourcedIds } from './oneroster-ids';
import { readOneRosterZip, type Write } from './oneroster-rows';
import { runRows, tallyOf } from './row-pool';
import { createUpserter, type Outcome, removePerson, removeRecord, type Upserter } from './upsert';

/** Which outcome a row with several writes has: the first refusal, else the strongest change. */
const rank: Outcome['result'][] = ['unchanged', 'updated', 'deleted', 'created'];
function combined(a: Outcome | undefined, b: Outcome): Outcome {
  if (!a || b.result === 'refused') return a?.result === 'refused' ? a : b;
  if (a.result === 'refused') return a;
  return rank.indexOf(b.result) > rank.indexOf(a.result) ? b : a;
}

export interface TableOutcome {
  table: string;
  rows: number;
  tally: ReturnType<typeof tallyOf>['tally'];
  refused: ReturnType<typeof tallyOf>['refused'];
}

export async function importOneRoster(
  file: string,
  ids: SourcedIds,
  records: RecordRepository,
  writer: RecordWriter,
  concurrency: number,
): Promise<{ tables: TableOutcome[]; skipped: string[] }> {
  const { phases, skipped } = readOneRosterZip(file, ids);
  const upserters = new Map<RecordGroup, Upserter>();
  const upserter = (group: RecordGroup) => {
    const known =
      upserters.get(group) ?? createUpserter(group, records, writer, knownFields(), { byId: true });
    upserters.set(group, known);
    return known;
  };
  const write = (w: Write): Promise<Outcome> => {
    if (w.kind === 'upsert') return upserter(w.group).upsert(w.value, w.defaults);
    if (w.kind === 'delete') return removeRecord(w.group, w.id, writer);
    return removePerson(w.id, records, writer);
  };
  /** Each file's rows by line, in the order files are first met. */
  const byTable = new Map<string, Map<number, Outcome>>();
  for (const phase of phases) {
    const outcomes = await runRows(
      phase.rows.map((row) => async (): Promise<Outcome> => {
        if (row.error) return { result: 'refused', reasons: [row.error] };
        let outcome: Outcome = { result: 'unchanged' };
        for (const w of row.writes) {
          outcome = combined(outcome, await write(w));
          if (outcome.result === 'refused') break;
        }
        return outcome;
      }),
      phase.serial ? 1 : concurrency,
    );
    const lines = byTable.get(phase.table) ?? new Map<number, Outcome>();
    byTable.set(phase.table, lines);
    phase.rows.forEach((row, i) => {
      lines.set(row.line, combined(lines.get(row.line), outcomes[i] as Outcome));
    });
  }
  const tables = [...byTable].map(([table, lines]) => ({
    table,
    rows: lines.size,
    ...tallyOf([...lines.keys()], [...lines.values()]),
  }));
  return { tables, skipped };
}
