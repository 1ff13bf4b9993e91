// Packs the steps of many independent writes into as few transactions as DynamoDB allows: at most
// `room` actions each, and no item touched twice in one (DynamoDB refuses a transaction that names an
// item twice), except by changes that add up (write-transaction.ts), which merge into one action: a
// class's new enrollments, a course's count of classes naming it, a group's count. A write whose items
// every open pack already touches otherwise waits for a later pack, so each pack stays all-or-nothing
// for the writes it holds.
import { type Additive, itemKey, RETRY, type Step } from './write-transaction';

/** The item a step acts on, as one string. */
export function itemOf({ action }: Step): string {
  return itemKey(
    action.Put ? action.Put.Item : (action.Update ?? action.Delete ?? action.ConditionCheck)?.Key,
  );
}

/** How many packs are filled at once: a class's enrollments spread over this many. */
const OPEN_PACKS = 32;

interface Pack<T> {
  writes: T[];
  actions: number;
  /** Each item the pack touches, with the kind of the change that adds up to it, if that is all it has. */
  items: Map<string, string | undefined>;
}

/** Where a step goes in a pack, and what may share it. */
const slotOf = (step: Step): [string, string | undefined] =>
  step.additive ? [step.additive.item, step.additive.kind] : [itemOf(step), undefined];

/**
 * Groups `writes` (each with the steps it commits) into packs of at most `room` actions once merged,
 * in which no item is touched twice but by changes that add up, keeping the writes' order within each
 * pack. A write with more steps than `room` has a pack of its own.
 */
export function packWrites<T extends { steps: readonly Step[] }>(writes: readonly T[], room: number): T[][] {
  const done: T[][] = [];
  const open: Pack<T>[] = [];
  for (const write of writes) {
    const slots = write.steps.map(slotOf);
    const added = (pack: Pack<T>) => slots.filter(([item]) => !pack.items.has(item)).length;
    const fits = (pack: Pack<T>) =>
      pack.actions + added(pack) <= room &&
      slots.every(
        ([item, kind]) => !pack.items.has(item) || (kind !== undefined && pack.items.get(item) === kind),
      );
    let pack = open.find(fits);
    if (!pack) {
      pack = { writes: [], actions: 0, items: new Map() };
      open.push(pack);
      if (open.length > OPEN_PACKS) done.push((open.shift() as Pack<T>).writes);
    }
    pack.writes.push(write);
    pack.actions += added(pack);
    for (const [item, kind] of slots) pack.items.set(item, kind);
    if (pack.actions >= room) {
      open.splice(open.indexOf(pack), 1);
      done.push(pack.writes);
    }
  }
  return [...done, ...open.map((pack) => pack.writes)].filter((pack) => pack.length > 0);
}

/** A pack's steps as one transaction: the changes that add up to one item merged into one action. */
export function mergeSteps(steps: readonly Step[]): Step[] {
  const merged = new Map<string, Step[]>();
  for (const step of steps) {
    const key = step.additive ? `${step.additive.item}\u0000${step.additive.kind}` : itemOf(step);
    merged.set(key, [...(merged.get(key) ?? []), step]);
  }
  return [...merged.values()].map((same) => {
    const [first] = same as [Step];
    if (same.length === 1 || !first.additive) return first;
    const changes = same.map((step) => step.additive as Additive);
    return first.additive.build(
      [...new Set(changes.flatMap((a) => a.entries))],
      changes.reduce((sum, a) => sum + a.by, 0),
      changes.reduce((sum, a) => sum + a.changes, 0),
    );
  });
}

/**
 * A condition as one side of an AND: in parentheses where an OR is outside any (AND binds closer), and
 * as it is otherwise, since DynamoDB refuses parentheses that change nothing.
 */
function conjunct(condition: string): string {
  let depth = 0;
  for (const [i, c] of [...condition].entries()) {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && condition.startsWith(' OR ', i)) return `(${condition})`;
  }
  return condition;
}

/**
 * A transaction's steps with each ConditionCheck among them on an item another step changes joined to
 * that step, the others after the changes. DynamoDB takes one action an item, so such a check becomes
 * part of the action's condition, with the old item returned when it fails: the check's own reading of
 * it then says whether it was the check that failed, and the action's otherwise. Placeholders must
 * differ from the action's.
 */
export function withChecks(steps: readonly Step[]): Step[] {
  const merged = steps.filter((step) => step.action.ConditionCheck === undefined);
  for (const check of steps) {
    const held = check.action.ConditionCheck;
    if (!held) continue;
    const at = merged.findIndex((step) => itemOf(step) === itemOf(check));
    const step = merged[at];
    if (step === undefined) {
      merged.push(check);
      continue;
    }
    const [kind, action] = Object.entries(step.action)[0] as [string, Record<string, unknown>];
    const condition = action.ConditionExpression as string | undefined;
    merged[at] = {
      ...step,
      action: {
        [kind]: {
          ...action,
          ConditionExpression: condition
            ? `${conjunct(condition)} AND ${conjunct(held.ConditionExpression as string)}`
            : held.ConditionExpression,
          ExpressionAttributeNames: {
            ...(action.ExpressionAttributeNames as object),
            ...held.ExpressionAttributeNames,
          },
          ExpressionAttributeValues: {
            ...(action.ExpressionAttributeValues as object),
            ...held.ExpressionAttributeValues,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (current) => {
        const outcome = check.onConditionFailed?.(current) ?? RETRY;
        return outcome === RETRY ? (step.onConditionFailed?.(current) ?? RETRY) : outcome;
      },
    };
  }
  return merged;
}
