// Real sourcedIds for the OneRoster routes' path parameters, found through the bindings themselves: a class
// with a student and a teacher, with its school, course and first term, so every nested collection of a
// path answers with objects, and a gradebook category, score scale, line item, result, assessment line item and assessment result.
import { GRADEBOOK_PATH, ROSTERING_PATH } from '../../shared/oneroster/paths';

type Get = (path: string) => Promise<Response>;
type Obj = { sourcedId: string } & Record<string, unknown>;

async function first(get: Get, path: string, key: string): Promise<Obj> {
  const response = await get(`${ROSTERING_PATH}${path}${path.includes('?') ? '&' : '?'}limit=1`);
  const body = (await response.json()) as Record<string, Obj[]>;
  const found = body[key]?.[0];
  if (!found) throw new Error(`no object at ${path}`);
  return found;
}

export interface RosterSamples {
  /** The path with its parameters filled in with the ids that fit it. */
  pathOf(template: string): string;
}

/** The first class with both a student and a teacher: a test may have made classes with neither. */
async function rosteredClass(get: Get) {
  const response = await get(`${ROSTERING_PATH}/classes?limit=100`);
  for (const cls of ((await response.json()) as { classes: Obj[] }).classes) {
    const [student, teacher] = await Promise.all([
      first(get, `/classes/${cls.sourcedId}/students`, 'users').catch(() => undefined),
      first(get, `/classes/${cls.sourcedId}/teachers`, 'users').catch(() => undefined),
    ]);
    if (student && teacher) return { cls, student, teacher };
  }
  throw new Error('no class with a student and a teacher');
}

export async function rosterSamples(get: Get): Promise<RosterSamples> {
  const { cls, student, teacher } = await rosteredClass(get);
  const ref = (field: string) => (cls[field] as { sourcedId: string }).sourcedId;
  const terms = cls.terms as { sourcedId: string }[];
  const term = terms[0]?.sourcedId ?? '';
  const byCollection: Record<string, string> = {
    schools: ref('school'),
    orgs: ref('school'),
    classes: cls.sourcedId,
    courses: ref('course'),
    terms: term,
    academicSessions: term,
    users: student.sourcedId,
    students: student.sourcedId,
    teachers: teacher.sourcedId,
    demographics: student.sourcedId,
  };
  const enrollment = await first(get, '/enrollments', 'enrollments');
  byCollection.enrollments = enrollment.sourcedId;
  const gradingPeriods = await get(`${ROSTERING_PATH}/gradingPeriods?limit=1`);
  const period = ((await gradingPeriods.json()) as { academicSessions: Obj[] }).academicSessions[0];
  byCollection.gradingPeriods = period?.sourcedId ?? 'none';
  for (const collection of [
    'categories',
    'scoreScales',
    'lineItems',
    'results',
    'assessmentLineItems',
    'assessmentResults',
  ]) {
    const response = await get(`${GRADEBOOK_PATH}/${collection}?limit=1`);
    const found = ((await response.json()) as Record<string, Obj[]>)[collection]?.[0];
    byCollection[collection] = found?.sourcedId ?? 'none';
  }
  // A line item of the class, for the results nested under it.
  const ofClass = await get(`${GRADEBOOK_PATH}/classes/${cls.sourcedId}/lineItems?limit=1`);
  const classItem = ((await ofClass.json()) as { lineItems: Obj[] }).lineItems[0]?.sourcedId ?? 'none';
  return {
    pathOf(template) {
      // The collection the path starts with, after its service's base path.
      const collection = template.split('/')[5] ?? '';
      return template
        .replace('{sourcedId}', byCollection[collection] ?? 'none')
        .replace('{classSourcedId}', cls.sourcedId)
        .replace('{studentSourcedId}', student.sourcedId)
        .replace('{lineItemSourcedId}', classItem);
    },
  };
}
