// The items a record write puts, updates and deletes, one transaction step each, on the keys of
// shared/data/keys.ts: the record at its next version, its processnumber claim, its group's counter,
// its entity's roles, a tutor's students and the deletion records. Each step carries the condition that
// keeps the table consistent and says what its failing means.
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { subjectOf } from '../audit/audit-event';
import { keys } from '../data/keys';
import { entityListing } from '../data/listings';
import { countChange, etag, type Item, internal, TREE_VERSION } from '../data/record-items';
import { tableDesign } from '../data/table';
import type { Tombstone } from '../data/tombstones';
import { InvalidInputError, StaleVersionError, StateConflictError } from '../domain/errors';
import { type GroupDescription, groups, idFields, type RecordGroup, type Reference } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { withArticle } from '../domain/words';
import type { EntityTagCondition } from '../http/preconditions';
import type { EntityRole } from '../schemas/records';
import { DELETION_RETENTION_DAYS } from './deletion-retention';
import { itemKey, RETRY, type Step } from './write-transaction';

/** What a record claims alone within its group (item-kinds.ts). */
export type Claim = 'processnumber' | 'naturalKey';

/**
 * A condition a record must meet to be deleted, beyond its version: an attribute it must not have, or
 * a list that must be empty; `refusal` is what the client is told when it does not.
 */
export interface DeleteGuard {
  kind: 'absent' | 'empty' | 'zero';
  attribute: string;
  refusal: () => Error;
}

/**
 * The condition that a set (`name`) has room for what a write adds, `room` being how many entries it may
 * hold before: an absent set has room unless the write alone adds more than the limit (merged writes of
 * an import may), when no set has.
 */
const roomFor = (name: string, room: number) =>
  room >= 0 ? `(attribute_not_exists(${name}) OR size(${name}) <= :room)` : `size(${name}) <= :room`;

/** How many entries a stored set holds (none when it is absent). */
const sizeOf = (value: unknown) => (value instanceof Set ? value.size : 0);

/** Whether a stored record fails a guard. */
function violates(stored: Item, guard: DeleteGuard): boolean {
  switch (guard.kind) {
    case 'absent':
      return Boolean(stored[guard.attribute]);
    case 'empty': {
      const list = stored[guard.attribute];
      return Array.isArray(list) && list.length > 0;
    }
    case 'zero':
      return Number(stored[guard.attribute] ?? 0) > 0;
  }
}

function guardCondition(guard: DeleteGuard, name: string): string {
  switch (guard.kind) {
    case 'absent':
      return `attribute_not_exists(${name})`;
    case 'empty':
      return `size(${name}) = :none`;
    case 'zero':
      return `(attribute_not_exists(${name}) OR ${name} = :none)`;
  }
}

/**
 * A failed version condition: 412 for a conditional request that saw the record, a race otherwise. The
 * 412 names the record (a record item's sort key is its id) and its person, for the audit event.
 */
const staleVersion = (ifMatch: EntityTagCondition | undefined) => (old: Item | undefined) =>
  old && ifMatch ? new StaleVersionError(etag(Number(old[internal.version])), subjectOf('sk', [old])) : RETRY;

/** A word with its indefinite article: "an organisation", "a school_year". */

export class WriteSteps {
  constructor(private readonly tableName: string) {}

  /** Puts an item that must not exist yet: a new record, whose id is fresh. */
  putNew(item: Item): Step {
    return {
      action: {
        Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /**
   * Puts a record's next version over the one read, `version`, whose links (what other records' writes
   * keep on it) were at `links`: a link changed since is carried over wrong, so the write is retried.
   */
  putNextVersion(item: Item, version: number, ifMatch: EntityTagCondition | undefined, links?: number): Step {
    return {
      action: {
        Put: {
          TableName: this.tableName,
          Item: item,
          ConditionExpression:
            links === undefined ? '#v = :v AND attribute_not_exists(#l)' : '#v = :v AND #l = :l',
          ExpressionAttributeNames: { '#v': internal.version, '#l': internal.links },
          ExpressionAttributeValues: { ':v': version, ...(links === undefined ? {} : { ':l': links }) },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        old && Number(old[internal.version]) === version ? RETRY : staleVersion(ifMatch)(old),
    };
  }

  /** Deletes a record still at `version` that meets its guards. */
  deleteVersion(
    group: RecordGroup,
    id: string,
    version: number,
    guards: readonly DeleteGuard[],
    ifMatch: EntityTagCondition | undefined,
  ): Step {
    const names = guards.map((_, i) => `#g${i}`);
    const values: Record<string, NativeAttributeValue> = { ':v': version };
    if (guards.some((g) => g.kind !== 'absent')) values[':none'] = 0;
    return {
      action: {
        Delete: {
          TableName: this.tableName,
          Key: keys.record(group, id),
          ConditionExpression: [
            '#v = :v',
            ...guards.map((g, i) => guardCondition(g, names[i] as string)),
          ].join(' AND '),
          ExpressionAttributeNames: {
            '#v': internal.version,
            ...Object.fromEntries(guards.map((g, i) => [names[i], g.attribute])),
          },
          ExpressionAttributeValues: values,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) => {
        if (!old) return RETRY;
        const refused = guards.find((guard) => violates(old, guard));
        return refused ? refused.refusal() : staleVersion(ifMatch)(old);
      },
    };
  }

  /** Deletes a record whatever its version (a person's enrollment ended with the person); it must exist. */
  deleteExisting(group: RecordGroup, id: string): Step {
    return {
      action: {
        Delete: {
          TableName: this.tableName,
          Key: keys.record(group, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /**
   * Moves a record within its group's tree (a session's, an organisation's, an assessment's parent): the
   * group's tree version, on its counter's unsharded item, goes up by one, provided it is still `seen`,
   * the version the cycle check read before walking up from the new parent. Two moves that each found no
   * cycle in the tree as it was cannot both commit: the second is tried again, and walks the tree the
   * first left.
   */
  treeMoved(group: RecordGroup, seen: number): Step {
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.counter(group),
          UpdateExpression: 'ADD #tree :one',
          ConditionExpression: seen === 0 ? 'attribute_not_exists(#tree) OR #tree = :seen' : '#tree = :seen',
          ExpressionAttributeNames: { '#tree': TREE_VERSION },
          ExpressionAttributeValues: { ':one': 1, ':seen': seen },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /** Changes a group's count by `by`, on one of its counter's shards. */
  count(group: RecordGroup, by: number): Step {
    return {
      action: countChange(this.tableName, group, by),
      additive: {
        item: `${keys.counterPartition}\u0000${group}`,
        kind: 'count',
        entries: [],
        by,
        changes: 1,
        build: (_entries, total) => this.count(group, total),
      },
    };
  }

  /**
   * Claims values a record holds alone within its group: its processnumber, or its natural key
   * (`naturalKey` in groups.ts, the values joined by `#`). 409 naming the record holding them.
   */
  claim(claim: Claim, group: RecordGroup, value: string, id: string): Step {
    const fields =
      claim === 'processnumber' ? ['processnumber'] : ((groups[group] as GroupDescription).naturalKey ?? []);
    return {
      action: {
        Put: {
          TableName: this.tableName,
          Item: { ...keys[claim](group, value), id },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        new StateConflictError(
          `${fields.join(' and ')} ${value.split('#').join(' and ')} ${fields.length > 1 ? 'belong' : 'belongs'} to another ${group} record.`,
          fields.map((name) => ({
            name,
            in: 'body' as const,
            reason: `taken by ${idFields[group]} ${String(old?.id ?? 'another record')}`,
          })),
          typeof old?.id === 'string' ? { field: idFields[group], id: old.id } : undefined,
        ),
    };
  }

  /** Releases a claim the record holds. */
  release(claim: Claim, group: RecordGroup, value: string, id: string): Step {
    return {
      action: {
        Delete: {
          TableName: this.tableName,
          Key: keys[claim](group, value),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /**
   * Files a record (`group`, `id`) under the record it names through a `listed` reference, or (`filed`
   * false) takes it out: its version's condition, in the same transaction, keeps the two in step.
   */
  referrer(reference: Reference, group: RecordGroup, namedId: string, id: string, filed: boolean): Step {
    const Key = keys.referrer(group, reference.field, namedId, id);
    return {
      action: filed
        ? { Put: { TableName: this.tableName, Item: Key } }
        : { Delete: { TableName: this.tableName, Key } },
    };
  }

  /** Adds a role to an existing person entity, which must be a person. */
  joinEntity(entityId: string, role: EntityRole, now: string): Step {
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('entities', entityId),
          // A person with a role is a user (listings.ts), whether or not they had one before.
          UpdateExpression:
            'SET #roles = list_append(#roles, :role), updated_at = :now, #cs = :cs, #lp = :users, #ls = :id ADD #v :one',
          ConditionExpression: 'attribute_exists(pk) AND entity_type = :person',
          ExpressionAttributeNames: {
            '#roles': 'roles',
            '#cs': tableDesign.changesIndex.sortKey,
            '#lp': tableDesign.listingsIndex.partitionKey,
            '#ls': tableDesign.listingsIndex.sortKey,
            '#v': internal.version,
          },
          ExpressionAttributeValues: {
            ':role': [role],
            ':now': now,
            ':cs': keys.changeSort(now, entityId),
            ':users': keys.listingPartition('users'),
            ':id': entityId,
            ':one': 1,
            ':person': 'person',
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        new InvalidInputError('entity_id does not name a person entity.', [
          {
            name: 'entity_id',
            in: 'body',
            reason: old ? 'the entity is an organisation' : 'no entity has this id',
          },
        ]),
    };
  }

  /**
   * Removes the role at `index` from an entity still at `version`, the one it was found at, which then
   * has `rolesLeft` roles: with none, it leaves the users' listing (listings.ts).
   */
  leaveEntity(entityId: string, index: number, version: number, now: string, rolesLeft: number): Step {
    const listing = entityListing({ entity_type: 'person', roles: Array.from({ length: rolesLeft }) });
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('entities', entityId),
          UpdateExpression: `REMOVE #roles[${index}] SET updated_at = :now, #cs = :cs, #lp = :listing, #ls = :id ADD #v :one`,
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: {
            '#roles': 'roles',
            '#cs': tableDesign.changesIndex.sortKey,
            '#lp': tableDesign.listingsIndex.partitionKey,
            '#ls': tableDesign.listingsIndex.sortKey,
            '#v': internal.version,
          },
          ExpressionAttributeValues: {
            ':now': now,
            ':cs': keys.changeSort(now, entityId),
            ':listing': keys.listingPartition(listing),
            ':id': entityId,
            ':one': 1,
            ':v': version,
          },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /**
   * Marks a person entity changed now, its content as it is: what a user is made of beyond the entity
   * changed (a role record's `ative`, OneRoster's `enabledUser`), so change readers find the person again.
   */
  touchEntity(entityId: string, now: string): Step {
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('entities', entityId),
          UpdateExpression: 'SET updated_at = :now, #cs = :cs ADD #v :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#cs': tableDesign.changesIndex.sortKey, '#v': internal.version },
          ExpressionAttributeValues: { ':now': now, ':cs': keys.changeSort(now, entityId), ':one': 1 },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /**
   * Puts a tutor in a student's set of tutors; the student must exist and have room for them: at most
   * `LIMITS.tutorsPerStudent` tutors (409 past it).
   */
  linkStudent(studentId: string, tutorId: string): Step {
    return this.linkStudents(studentId, [tutorId], 1);
  }

  /** Puts tutors in a student's set, as `changes` writes of `linkStudent` would. */
  private linkStudents(studentId: string, tutorIds: readonly string[], changes: number): Step {
    return {
      additive: {
        item: itemKey(keys.record('students', studentId)),
        kind: 'tutors',
        entries: tutorIds,
        by: 0,
        changes,
        build: (entries, _by, n) => this.linkStudents(studentId, entries, n),
      },
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('students', studentId),
          UpdateExpression: 'ADD #tutors :tutor, #l :changes',
          ConditionExpression: `attribute_exists(pk) AND ${roomFor('#tutors', LIMITS.tutorsPerStudent - tutorIds.length)}`,
          ExpressionAttributeNames: { '#tutors': internal.tutors, '#l': internal.links },
          ExpressionAttributeValues: {
            ':tutor': new Set(tutorIds),
            ':changes': changes,
            ':room': LIMITS.tutorsPerStudent - tutorIds.length,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        old
          ? new StateConflictError(
              `Student ${studentId} already has the most tutors one may have (${LIMITS.tutorsPerStudent}).`,
              [
                {
                  name: 'student_ids',
                  in: 'body',
                  reason: `student ${studentId} has no room for another tutor`,
                },
              ],
            )
          : new InvalidInputError('student_ids names a student that does not exist.', [
              { name: 'student_ids', in: 'body', reason: `no student has student_id ${studentId}` },
            ]),
    };
  }

  unlinkStudent(studentId: string, tutorId: string): Step {
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('students', studentId),
          UpdateExpression: 'DELETE #tutors :tutor ADD #l :one',
          ExpressionAttributeNames: { '#tutors': internal.tutors, '#l': internal.links },
          ExpressionAttributeValues: { ':tutor': new Set([tutorId]), ':one': 1 },
        },
      },
    };
  }

  /**
   * Counts a record naming `id` through `reference` (`by` 1) or no longer naming it (`by` -1), or still
   * naming it (`by` 0). A record named anew or still must exist, and be an entity of the reference's type
   * where it says. `tally` changes the counts the named record keeps of what names it (tallies.ts): each
   * entry one record's change of one count, `[<record id>, <attribute>, <by>]` as JSON, so that several
   * records' changes merge into one update (a register's marks), whatever the attribute holds.
   */
  refer(
    reference: Reference,
    id: string,
    by: 1 | 0 | -1,
    matching?: string | null,
    tally: readonly string[] = [],
  ): Step {
    return this.referMany(reference, id, by, 1, matching, tally);
  }

  /** `changes` writes of `refer`, adding up to `by` and to the tally entries. */
  private referMany(
    reference: Reference,
    id: string,
    by: number,
    changes: number,
    matching: string | null | undefined,
    tally: readonly string[],
  ): Step {
    const net = new Map<string, number>();
    for (const entry of tally) {
      const [, name, change] = JSON.parse(entry) as [string, string, number];
      net.set(name, (net.get(name) ?? 0) + change);
    }
    const counts = [...net].filter(([, change]) => change !== 0);
    const lowered = counts.filter(([, change]) => change < 0).map(([name]) => name);
    return {
      ...this.linkUpdate(
        reference,
        id,
        by >= 0,
        `ADD ${['#a :n', '#l :changes', ...counts.map((_, i) => `#t${i} :t${i}`)].join(', ')}`,
        { ':n': by, ...Object.fromEntries(counts.map(([, change], i) => [`:t${i}`, change])) },
        internal.refs,
        changes,
        undefined,
        matching,
        Object.fromEntries(counts.map(([name], i) => [`#t${i}`, name])),
      ),
      ...(lowered.length > 0 && { lowered: { key: keys.record(reference.group, id), names: lowered } }),
      additive: {
        item: itemKey(keys.record(reference.group, id)),
        // Writes merge only where they check the same: a class, none (null), or nothing (undefined).
        kind: `refer${by >= 0 ? '+' : '-'}${matching === null ? '#none' : (matching ?? '')}`,
        entries: tally,
        by,
        changes,
        build: (entries, total, n) => this.referMany(reference, id, total, n, matching, entries),
      },
    };
  }

  /**
   * Adds entries to (or takes them from) the enrollments a class or person entity lists, at `now`. An
   * addition that would take the list past `LIMITS.enrollmentsPerRecord` entries is refused (409).
   */
  enroll(
    reference: Reference,
    id: string,
    entries: readonly string[],
    adding: boolean,
    now: string,
    changes = 1,
  ): Step {
    const expression = `${adding ? 'ADD #a :e, #l :changes' : 'DELETE #a :e ADD #l :changes'} SET #at = :at`;
    return {
      ...this.linkUpdate(
        reference,
        id,
        adding,
        expression,
        { ':e': new Set(entries), ':at': now },
        internal.enrollments,
        changes,
        adding ? LIMITS.enrollmentsPerRecord - entries.length : undefined,
      ),
      additive: {
        item: itemKey(keys.record(reference.group, id)),
        kind: `enroll${adding ? '+' : '-'}${now}`,
        entries,
        by: 0,
        changes,
        build: (all, _by, n) => this.enroll(reference, id, all, adding, now, n),
      },
    };
  }

  /**
   * An update of a named record's links (`#a`, and the links counter `#l`); when `naming`, the record
   * must exist and be of the right type, and hold `matching` in the reference's `matching` field (none
   * there, where `matching` is null: an assessment of no class is no class's); with
   * `room`, the set `#a` must hold at most that many entries.
   */
  private linkUpdate(
    reference: Reference,
    id: string,
    naming: boolean,
    expression: string,
    values: Record<string, NativeAttributeValue>,
    attribute: string,
    changes: number,
    room?: number,
    matching?: string | null,
    names: Record<string, string> = {},
  ): Step {
    const { group, kind, field } = reference;
    const typed = naming && kind !== undefined;
    const matched = naming && reference.matching !== undefined && matching !== undefined;
    const holdsNone = '(attribute_not_exists(#match) OR attribute_type(#match, :null))';
    const conditions = [
      ...(naming ? ['attribute_exists(pk)'] : []),
      ...(typed ? ['#kind = :kind'] : []),
      ...(matched
        ? [
            matching === null
              ? holdsNone
              : reference.orShared
                ? `(#match = :match OR ${holdsNone})`
                : '#match = :match',
          ]
        : []),
      ...(room !== undefined ? [roomFor('#a', room)] : []),
    ];
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record(group, id),
          UpdateExpression: expression,
          ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
          ExpressionAttributeNames: {
            ...names,
            '#a': attribute,
            '#l': internal.links,
            ...(':at' in values ? { '#at': internal.enrolledAt } : {}),
            ...(typed ? { '#kind': kind.field } : {}),
            ...(matched ? { '#match': reference.matching } : {}),
          },
          ExpressionAttributeValues: {
            ...values,
            ':changes': changes,
            ...(typed ? { ':kind': kind.value } : {}),
            ...(matched && matching !== null ? { ':match': matching } : {}),
            ...(matched && (matching === null || reference.orShared) ? { ':null': 'NULL' } : {}),
            ...(room !== undefined ? { ':room': room } : {}),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        room !== undefined && old && sizeOf(old[attribute]) > room
          ? new StateConflictError(
              `${groups[group].noun} ${id} already has the most enrollments one may have (${LIMITS.enrollmentsPerRecord}).`,
              [{ name: field, in: 'body', reason: `${groups[group].noun} ${id} is full` }],
            )
          : old && matched && (old[reference.matching as string] ?? null) !== matching
            ? new InvalidInputError(
                `${field} names a ${groups[group].noun} of another ${reference.matching}.`,
                [
                  {
                    name: field,
                    in: 'body',
                    reason: `${groups[group].noun} ${id} has ${reference.matching} ${String(old[reference.matching as string])}`,
                  },
                ],
              )
            : new InvalidInputError(
                `${field} does not name ${typed ? `${withArticle(kind.value)} ${groups[group].noun}` : withArticle(groups[group].noun)}.`,
                [
                  {
                    name: field,
                    in: 'body',
                    reason:
                      old && typed
                        ? `${groups[group].noun} ${id} is not ${withArticle(kind.value)}`
                        : `no ${groups[group].noun} has id ${id}`,
                  },
                ],
              ),
    };
  }

  /**
   * The deletion's entry in the group's /deleted list, with what it keeps of the record (tombstones.ts),
   * and its id's 410; both expire with the retention.
   */
  recordDeletion<G extends RecordGroup>(group: G, id: string, now: string, kept: Tombstone<G>): Step[] {
    const ttl = Math.floor(Date.parse(now) / 1000) + DELETION_RETENTION_DAYS * 86_400;
    return [
      {
        action: {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.deletion(group, now, id), [idFields[group]]: id, deleted_at: now, kept, ttl },
          },
        },
      },
      {
        action: {
          Put: { TableName: this.tableName, Item: { ...keys.gone(group, id), deleted_at: now, ttl } },
        },
      },
    ];
  }
}
