// The table partitions each operation of a record group touches, from the group's description
// (shared/domain/groups.ts): what its routes are granted, the service's own (record-routes.ts) and the
// OneRoster Gradebook binding's writes (oneroster/routes.ts) alike.
import { reachSources } from './auth/reach';
import { partlyWritten } from './auth/roles';
import { ofOneClass, schoolHeldSources, schoolSources } from './auth/school-scope';
import { keys } from './data/keys';
import { isStudentWork } from './data/listings';
import { tallyKeeper } from './data/tallies';
import {
  aboutStudentOfClass,
  type GroupDescription,
  groups,
  isRoleGroup,
  type RecordGroup,
  type Reference,
  treeReference,
} from './domain/groups';
import { schoolDeletionSources } from './records/school-deletions';

/** The partitions a group's operations touch (docs/data-model.md lists each item). */
export function partitionsOf(group: RecordGroup) {
  const {
    processnumber,
    naturalKey,
    links: linked,
    references,
    fixed = [],
  } = groups[group] as GroupDescription;
  const record = keys.recordPartition(group);
  const numbered = processnumber ? [keys.processnumberPartition(group)] : [];
  // A natural key is claimed when the record is made and released when it is deleted: its fields are fixed.
  const claims = [...numbered, ...(naturalKey ? [keys.naturalKeyPartition(group)] : [])];
  const named = (all: boolean) => [
    ...(linked ? [keys.recordPartition(linked.group)] : []),
    ...new Set(
      references
        .filter((reference: Reference) => all || !fixed.includes(reference.field))
        .map((reference: Reference) => keys.recordPartition(reference.group)),
    ),
  ];
  const links = named(true);
  // A replace names no other record in a fixed field (an enrollment's class and person, a line item's class).
  const relinks = named(false);
  // Deleting a person ends their enrollments: each leaves its class and is recorded as deleted.
  const ended =
    group === 'entities'
      ? [
          keys.recordPartition('enrollments'),
          keys.deletionPartition('enrollments'),
          keys.gonePartition('enrollments'),
          keys.recordPartition('classes'),
        ]
      : [];
  // A person's role joins and leaves its entity.
  const owner = isRoleGroup(group) ? [keys.recordPartition('entities')] : [];
  // A person who may read only some of the group reads them by id, found from their own records.
  const reach = reachSources(group);
  // A client registered with schools reads what they hold, found from their classes (school-scope.ts).
  const schools = schoolSources(group);
  const readers = (...partitions: string[]) => [...new Set([...partitions, ...reach, ...schools])];
  // Whether it holds one record is asked of the record itself (SchoolHoldings.held).
  const held = schoolHeldSources(group);
  // A person who writes only the group's records of the classes they teach: their entity lists them.
  const writer = partlyWritten(group) ? [keys.recordPartition('entities')] : [];
  // The record keeping what the group's records add up to, changed with each of them (tallies.ts).
  const keeper = tallyKeeper(group);
  const tally = keeper ? [keys.recordPartition(keeper.group)] : [];
  // A record moved in its group's tree reads and moves the tree's version, on the group's counter.
  const tree = treeReference(group) ? [keys.counterPartition] : [];
  // A record is filed under what it names through a listed reference (item-kinds.ts, `referrer`).
  const filed = references.some((reference: Reference) => reference.listed)
    ? [keys.referrerPartition(group)]
    : [];
  // A POST's Idempotency-Key: its kept response is read first and written in the POST's transaction.
  const idempotency = keys.idempotencyPartition(group);
  return {
    list: readers(record, keys.counterPartition, keys.changePartition(group)),
    get: [...new Set([record, keys.gonePartition(group), ...reach, ...held])],
    deleted: readers(keys.deletionPartition(group), ...schoolDeletionSources(group)),
    create: {
      // A school-scoped client's enrollment or line item is checked to be in its schools' classes, and a
      // result's or attendance record's student to be one its schools hold (school-writes.ts).
      reads: [
        ...new Set([
          idempotency,
          ...(ofOneClass(group) ? [keys.recordPartition('classes')] : []),
          ...(isStudentWork(group) ? schoolHeldSources('students') : []),
          // A record about a student of a class is made only for one it enrolls (class-students.ts): the
          // student's person's enrollment list, and the class where it does not.
          ...(aboutStudentOfClass(group)
            ? (['students', 'entities', 'classes'] as const).map(keys.recordPartition)
            : []),
          ...writer,
        ]),
      ],
      writes: [
        ...new Set([record, keys.counterPartition, ...claims, ...owner, ...links, ...filed, idempotency]),
      ],
    },
    replace: {
      reads: [...new Set([record, keys.gonePartition(group), ...held, ...writer, ...tree])],
      // A role record's `ative` moves its entity's change time (write-rules.ts, enabledSteps).
      writes: [...new Set([record, ...numbered, ...relinks, ...owner, ...tally, ...tree, ...filed])],
    },
    remove: {
      reads: [...new Set([record, keys.gonePartition(group), ...owner, ...held, ...writer])],
      writes: [
        record,
        keys.counterPartition,
        keys.deletionPartition(group),
        keys.gonePartition(group),
        ...claims,
        ...owner,
        ...links,
        ...filed,
        ...ended,
      ],
    },
    addDocument: {
      reads: [...new Set([record, keys.gonePartition(group), idempotency, ...held, ...writer])],
      writes: [record, idempotency],
    },
    /** What only a person's writes read (a client's never): a teacher's classes, from their entity. */
    personWrites: writer,
  };
}
