// Sign-in accounts for the demo tenant, one per kind of person, picked from the seeded records so that
// each shows its role's reach: an administrator on the staff, a teacher, two guardians of different
// families (each reads only their own children), a student of the teacher's (so the teacher's grades
// reach them) and a staff member without admin rights.
import type { NewRecord } from '../../../shared/data/seed-records';
import type { Enrollment, Entity, Tutor } from '../../../shared/schemas/records';

export interface DemoUser {
  username: string;
  /** The person's own address, which signs in as well as the username. */
  email: string;
  entity_id: string;
  admin: boolean;
  /** What the account shows, for the README and the start banner. */
  description: string;
}

/** Whether an entity's roles are all of one kind. */
const only = (role: string) => (entity: Entity) => {
  const roles = new Set(entity.roles.map((r) => r.role));
  return roles.size === 1 && roles.has(role as never);
};

/** The person the demo `teacher` account signs in as: the first entity that is a teacher and nothing else. */
export const demoTeacher = (entities: readonly Entity[]): Entity | undefined =>
  entities.find(only('teacher'));

export function demoUsers(records: NewRecord[]): DemoUser[] {
  const entities = records.filter((r) => r.group === 'entities').map((r) => r.record as Entity);
  const tutors = records.filter((r) => r.group === 'tutors').map((r) => r.record as Tutor);
  const byId = new Map(entities.map((e) => [e.entity_id, e]));
  const [firstStaff, secondStaff] = entities.filter(only('staff'));
  const teacher = demoTeacher(entities);
  const enrollments = records.filter((r) => r.group === 'enrollments').map((r) => r.record as Enrollment);
  const taught = new Set(
    enrollments
      .filter((e) => e.entity_id === teacher?.entity_id && e.role === 'teacher')
      .map((e) => e.class_id),
  );
  const taughtStudents = new Set(
    enrollments.filter((e) => e.role === 'student' && taught.has(e.class_id)).map((e) => e.entity_id),
  );
  const student = entities.find((e) => only('student')(e) && taughtStudents.has(e.entity_id));
  const guardians = tutors.filter(
    (t) => t.student_ids.length >= 2 && only('tutor')(byId.get(t.entity_id) as Entity),
  );
  const guardian = guardians[0];
  const other = guardians.find((t) => !t.student_ids.some((id) => guardian?.student_ids.includes(id)));
  const picked: Array<[string, Entity | Tutor | undefined, boolean, string]> = [
    ['admin', firstStaff, true, 'staff with admin rights: every scope'],
    ['teacher', teacher, false, 'a teacher: reads their classes and their students, teachers and tutors'],
    ['guardian', guardian, false, "a guardian: reads their own children and the children's classes"],
    ['guardian2', other, false, 'a guardian of another family'],
    ['student', student, false, 'a student: reads their own record and classes'],
    ['staff', secondStaff, false, 'staff without admin rights: reads teachers and staff'],
  ];
  return picked.map(([username, source, admin, description]) => {
    if (!source) throw new Error(`The demo tenant has no record for the ${username} account.`);
    const entity = byId.get(source.entity_id) as Entity;
    return { username, email: entity.email.toLowerCase(), entity_id: source.entity_id, admin, description };
  });
}
