// Loads a OneRoster zip's phases (oneroster-rows.ts) through the record writer: the rows of a phase in
// batches, `concurrency` batches at a time (one row at a time where they name each other), behind one
// progress bar for the whole zip, whose time left is at the rate of the rows so far; a row's
// writes in order, stopping at the first refused. A batch's new records are created in transactions of
// many rather than one each (docs/oneroster.md gives the rates measured). A row written in two phases (a
// user and, later, their tutor record) is one row.
import type { RecordRepository } from '../../shared/data/record-repository';
import {
  idFields,
  isRoleGroup,
  type RecordGroup,
  type RoleGroup,
  roleGroups,
  roleName,
} from '../../shared/domain/groups';
import { sexOf } from '../../shared/oneroster/objects';
import { knownFields } from '../../shared/records/write-records';
import type { ImportWriter } from './import-writer';
import { inParallel } from './in-parallel';
import { deletionGuards, gradebookPreparers, type Pending } from './oneroster-gradebook';
import type { SourcedIds } from './oneroster-ids';
import { type PlannedRow, readOneRosterZip, type Write } from './oneroster-rows';
import { rowProgress, runBatches, tallyOf } from './row-pool';
import { createUpserter, type Outcome, removePerson, removeRecord, type Upserter } from './upsert';

/** Whether two lists hold the same entries, whatever their order. */
const sameSet = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((entry) => b.includes(entry));

/**
 * A user's `enabledUser` stands for every role of the person (a user is enabled when any of its roles is
 * active), while each role record has its own `ative`. So an enabled user's role is made active only
 * where the person has no other active role: one that is not stays as it is (its `ative` left out of the
 * value, which the upsert keeps), and the service's own export loads back unchanged.
 */
async function keepOtherRolesActive(
  records: RecordRepository,
  group: RoleGroup,
  values: { value: unknown }[],
): Promise<void> {
  const enabling = values.filter(({ value }) => (value as { ative?: unknown }).ative === true);
  if (enabling.length === 0) return;
  const persons = await records.rolesOfEntities([
    ...new Set(enabling.map(({ value }) => String((value as { entity_id: unknown }).entity_id))),
  ]);
  const roles = [...persons.values()].flatMap((p) => p.roles);
  const read = await Promise.all(
    roleGroups.map((roleGroup) =>
      records.getManyItems(
        roleGroup,
        roles.filter((r) => r.role === roleName(roleGroup)).map((r) => r.id),
        'ative',
      ),
    ),
  );
  const active = new Set(
    read.flatMap((items) => [...items].flatMap(([id, item]) => (item.ative ? [id] : []))),
  );
  for (const entry of enabling) {
    const { ative: _, ...rest } = entry.value as Record<string, unknown>;
    const id = rest[idFields[group]];
    const others = persons.get(String(rest.entity_id))?.roles.filter((r) => r.id !== id) ?? [];
    if (others.some((r) => active.has(r.id))) entry.value = rest;
  }
}

/** Rows a batch of a phase takes unless told: its new records are created in transactions of many. */
export const BATCH_ROWS = 250;

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
  writer: ImportWriter,
  concurrency: number,
  batchRows = BATCH_ROWS,
): Promise<{ tables: TableOutcome[]; skipped: string[] }> {
  const { phases, skipped } = readOneRosterZip(file, ids);
  const upserters = new Map<RecordGroup, Upserter>();
  const upserter = (group: RecordGroup) => {
    const known =
      upserters.get(group) ??
      createUpserter(group, records, writer, knownFields(), {
        byId: true,
        // A new result's student is checked against its class a batch at a time (oneroster-gradebook.ts).
        classStudentsChecked: true,
        sameAs: {
          // A person's gender that the file's sex stands for stays as it is written ("Feminino", "Female").
          gender: (current, value) => sexOf(String(current ?? '')) === sexOf(String(value ?? '')),
          // A guardian's students are a set: the file's order is not a change.
          student_ids: sameSet,
        },
      });
    upserters.set(group, known);
    return known;
  };
  const write = async (w: Write): Promise<Outcome> => {
    if (w.kind === 'upsert') return upserter(w.group).upsert(w.value, w.defaults);
    if (w.kind === 'delete') {
      const refusal = await deletionGuards[w.group]?.(records, w.id);
      return refusal ? { result: 'refused', reasons: [refusal] } : removeRecord(w.group, w.id, writer);
    }
    return removePerson(w.id, records, writer);
  };
  /**
   * A batch of a phase's rows, write by write: the first write of every row, then the second of those
   * not refused, and so on; a write's upserts of one group go together (upsertMany), deletions one by one.
   */
  const writeBatch = async (rows: readonly PlannedRow[]): Promise<Outcome[]> => {
    const outcomes: Outcome[] = rows.map((row) =>
      row.error ? { result: 'refused', reasons: [row.error] } : { result: 'unchanged' },
    );
    for (let step = 0; ; step++) {
      const going = rows.flatMap((row, i) => {
        const w = row.writes[step];
        return w && outcomes[i]?.result !== 'refused' ? [{ i, w }] : [];
      });
      if (going.length === 0) return outcomes;
      const record = (i: number, outcome: Outcome) => {
        outcomes[i] = combined(outcomes[i], outcome);
      };
      const upserts = new Map<RecordGroup, Pending[]>();
      const others: { i: number; w: Write }[] = [];
      for (const { i, w } of going) {
        if (w.kind !== 'upsert') {
          others.push({ i, w });
          continue;
        }
        const values = upserts.get(w.group) ?? [];
        values.push({ i, value: w.value, defaults: w.defaults, checks: w.checks });
        upserts.set(w.group, values);
      }
      for (const [group, values] of upserts) {
        if (isRoleGroup(group)) await keepOtherRolesActive(records, group, values);
        const refusals = (await gradebookPreparers[group]?.(records, values)) ?? new Map<number, string>();
        for (const [i, reason] of refusals) record(i, { result: 'refused', reasons: [reason] });
        const ready = values.filter(({ i }) => !refusals.has(i));
        const done = await upserter(group).upsertMany(ready, concurrency);
        for (const [k, { i }] of ready.entries()) record(i, done[k] as Outcome);
      }
      const removed = await inParallel(others, concurrency, ({ w }) => write(w));
      for (const [k, { i }] of others.entries()) record(i, removed[k] as Outcome);
    }
  };
  /** Each file's rows by line, in the order files are first met. */
  const byTable = new Map<string, Map<number, Outcome>>();
  const progress = rowProgress(phases.reduce((sum, phase) => sum + phase.rows.length, 0));
  for (const phase of phases) {
    const outcomes = phase.serial
      ? await runBatches(phase.rows, 1, 1, writeBatch, progress)
      : await runBatches(phase.rows, batchRows, concurrency, writeBatch, progress);
    const lines = byTable.get(phase.table) ?? new Map<number, Outcome>();
    byTable.set(phase.table, lines);
    phase.rows.forEach((row, i) => {
      lines.set(row.line, combined(lines.get(row.line), outcomes[i] as Outcome));
    });
  }
  progress.stop();
  const tables = [...byTable].map(([table, lines]) => ({
    table,
    rows: lines.size,
    ...tallyOf([...lines.keys()], [...lines.values()]),
  }));
  return { tables, skipped };
}
