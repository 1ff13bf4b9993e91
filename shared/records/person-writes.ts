// What a signed-in person may write (docs/sso.md, "Who reads what"; roles.ts, `writePolicy`): an
// administrator every group, a teacher the line items of the classes they teach. A group their roles do
// not write is refused (403, `outside-reach`) though the token carries its family's scope, and so is a
// new record of a class they do not teach; a record of such a class is not there for them (404), as on
// a read. The classes are read from the person's entity on every write, as a read's reach is.
import { classesTaught } from '../auth/reach';
import { writeReachOf } from '../auth/roles';
import type { RecordRepository } from '../data/record-repository';
import { OutsideReachError } from '../domain/errors';
import { groups, type RecordGroup } from '../domain/groups';
import type { ApiRequest } from '../exchange';
import { notFound } from './missing-record';

/** How far the request's person writes into the group: everything for a client's own token. */
function reachOf(request: ApiRequest, group: RecordGroup) {
  const person = request.auth?.person;
  if (!person) return { all: true as const };
  const reach = writeReachOf(person.roles, group);
  if (reach === undefined) {
    throw new OutsideReachError(`Your roles do not write ${groups[group].plural}.`);
  }
  return reach === 'all' ? { all: true as const } : { all: false as const, entityId: person.entityId };
}

/** Whether the person teaches the class: their entity's enrollment list, read alone, names them its teacher. */
async function teaches(entityId: string, classId: string | undefined, records: RecordRepository) {
  if (classId === undefined) return false;
  const list = (await records.enrollmentLists('entities', [entityId])).get(entityId);
  return classesTaught(list?.entries ?? []).includes(classId);
}

/** Refuses a create by a person of what they do not write: a group, or a class they do not teach. */
export async function refuseCreateOutOfReach(
  request: ApiRequest,
  group: RecordGroup,
  /** The validated body. */
  input: object,
  records: RecordRepository,
) {
  const reach = reachOf(request, group);
  if (reach.all) return;
  if (await teaches(reach.entityId, (input as { class_id?: string }).class_id, records)) return;
  throw new OutsideReachError(`You write ${groups[group].plural} only of the classes you teach.`, [
    { name: 'class_id', in: 'body', reason: 'is not a class you teach' },
  ]);
}

/** Refuses a change by a person of a record they do not write: its group (403), or its class (404). */
export async function refuseChangeOutOfReach(
  request: ApiRequest,
  group: RecordGroup,
  id: string,
  records: RecordRepository,
) {
  const reach = reachOf(request, group);
  if (reach.all) return;
  const [record] = (await records.getMany(group, [id])).values();
  // A missing record is the writer's to answer (404, or 410 once deleted).
  if (!record) return;
  if (!(await teaches(reach.entityId, (record as { class_id?: string }).class_id, records))) {
    throw notFound(group, id);
  }
}
