// What a client registered with `schools` may write (docs/sso.md, "School scoping"): records its schools
// hold, as its reads find them, and new classes and the records of a class (enrollments, line items,
// results, attendance) in them, a result or an attendance record only of a student they hold. Anything else it would create is outside its schools until enrolled
// there, so it is refused (403); a record it cannot read is not there for it (404), as on a read.
import { ofOneClass, SchoolHoldings, sharedBySchools } from '../auth/school-scope';
import { isStudentWork } from '../data/listings';
import type { RecordRepository } from '../data/record-repository';
import { OutsideSchoolsError } from '../domain/errors';
import { groups, type RecordGroup } from '../domain/groups';
import { withArticle } from '../domain/words';
import type { ApiRequest } from '../exchange';
import { notFound } from './missing-record';

const field = (body: unknown, name: string) =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/** A class's school, as a write's body names it, must be one of the client's schools. */
function refuseOtherSchool(schools: readonly string[], body: unknown) {
  const school = field(body, 'school_id');
  if (typeof school === 'string' && !schools.includes(school)) {
    throw new OutsideSchoolsError(
      "This client writes only in its schools: the class's school is not one of them.",
      [{ name: 'school_id', in: 'body', reason: "is not one of this client's schools" }],
    );
  }
}

/** Refuses a create by a school-scoped client of what its schools would not hold. */
export async function refuseCreateOutsideSchools(
  request: ApiRequest,
  group: RecordGroup,
  /** The validated body. */
  input: object,
  records: RecordRepository,
) {
  const schools = request.auth?.schools;
  if (!schools) return;
  if (group === 'classes') return refuseOtherSchool(schools, input);
  if (ofOneClass(group)) {
    const classId = field(input, 'class_id');
    // A record that names no class (a whole day's attendance) is of no school of the client's.
    if (classId === null) {
      throw new OutsideSchoolsError(
        `This client writes only in its schools: ${withArticle(groups[group].noun)} of no class is in none of them.`,
        [{ name: 'class_id', in: 'body', reason: "must be a class of this client's schools" }],
      );
    }
    if (
      typeof classId === 'string' &&
      !schools.includes((await records.schoolsOfClasses([classId])).get(classId) ?? '')
    ) {
      throw new OutsideSchoolsError(
        `This client writes only in its schools: the ${groups[group].noun}'s class is not in one of them.`,
        [{ name: 'class_id', in: 'body', reason: "is not a class of this client's schools" }],
      );
    }
    const studentId = field(input, 'student_id');
    if (isStudentWork(group) && typeof studentId === 'string') {
      await refuseStudentsOutsideSchools(request, records, [studentId], () => 'student_id');
    }
    return;
  }
  throw new OutsideSchoolsError(
    `This client is limited to some schools: it creates only classes, enrollments and line items there, not ${groups[group].plural}.`,
  );
}

/**
 * Refuses a school-scoped client's records about students its schools do not hold (a result, an attendance
 * record): as it reads none of them, it writes none. `name` names each student's field in the body.
 */
export async function refuseStudentsOutsideSchools(
  request: ApiRequest,
  records: RecordRepository,
  studentIds: readonly string[],
  name: (index: number) => string,
) {
  const schools = request.auth?.schools;
  if (!schools) return;
  const held = await new SchoolHoldings(schools, records).held('students', studentIds);
  const outside = studentIds.flatMap((id, index) =>
    held.has(id)
      ? []
      : [{ name: name(index), in: 'body' as const, reason: "is not a student of this client's schools" }],
  );
  if (outside.length > 0) {
    throw new OutsideSchoolsError(
      'This client writes only in its schools: a student named is not one of theirs.',
      outside,
    );
  }
}

/** Refuses a change by a school-scoped client of a record its schools do not hold (404), or moving a class out of them. */
export async function refuseChangeOutsideSchools(
  request: ApiRequest,
  group: RecordGroup,
  id: string,
  records: RecordRepository,
  /** A replacement's body, whose class must stay in the client's schools. */
  replacement?: unknown,
) {
  const schools = request.auth?.schools;
  if (!schools) return;
  if (sharedBySchools(group)) {
    throw new OutsideSchoolsError(
      `This client is limited to some schools: it reads the ${groups[group].plural} all schools share, and changes none.`,
    );
  }
  if (!(await new SchoolHoldings(schools, records).held(group, [id])).has(id)) throw notFound(group, id);
  if (group === 'classes') refuseOtherSchool(schools, replacement);
}
