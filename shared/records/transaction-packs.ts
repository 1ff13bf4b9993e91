// Packs the steps of many independent writes into as few transactions as DynamoDB allows: at most
// `room` actions each, and no item touched twice in one (DynamoDB refuses a transaction that names an
// item twice). A write whose items another write in every open pack already touches (the enrollments
// of one class) waits for a later pack, so each pack stays all-or-nothing for the writes it holds.
import type { Step } from './write-transaction';

/** The item a step acts on, as one string. */
export function itemOf({ action }: Step): string {
  const key = action.Put ? action.Put.Item : (action.Update ?? action.Delete ?? action.ConditionCheck)?.Key;
  return `${String(key?.pk)}\u0000${String(key?.sk)}`;
}

/** How many packs are filled at once: a class's enrollments spread over this many. */
const OPEN_PACKS = 32;

interface Pack<T> {
  writes: T[];
  actions: number;
  items: Set<string>;
}

/**
 * Groups `writes` (each with the steps it commits) into packs of at most `room` actions in which no
 * item is touched twice, keeping the writes' order within each pack. A write with more steps than
 * `room` has a pack of its own.
 */
export function packWrites<T extends { steps: readonly Step[] }>(writes: readonly T[], room: number): T[][] {
  const done: T[][] = [];
  const open: Pack<T>[] = [];
  for (const write of writes) {
    const items = write.steps.map(itemOf);
    const fits = (pack: Pack<T>) =>
      pack.actions + items.length <= room && items.every((item) => !pack.items.has(item));
    let pack = open.find(fits);
    if (!pack) {
      pack = { writes: [], actions: 0, items: new Set() };
      open.push(pack);
      if (open.length > OPEN_PACKS) done.push((open.shift() as Pack<T>).writes);
    }
    pack.writes.push(write);
    pack.actions += items.length;
    for (const item of items) pack.items.add(item);
    if (pack.actions >= room) {
      open.splice(open.indexOf(pack), 1);
      done.push(pack.writes);
    }
  }
  return [...done, ...open.map((pack) => pack.writes)].filter((pack) => pack.length > 0);
}
