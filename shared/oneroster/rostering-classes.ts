// The OneRoster 1.2 Rostering reads of the rostering model: academic sessions (and terms and grading
// periods), courses, classes and enrollments, and the nested collections that list them by school, term,
// course, class or user. Each reads the groups it needs whole (they are small beside the people, and
// bounded like them) or, for a class's or a person's enrollments, only those (docs/oneroster.md).
import type { EnrollmentEntry } from '../data/enrollment-entries';
import type { Deletion } from '../data/pages';
import { pageOfIds } from '../data/pages-of-ids';
import type { RecordGroup } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../exchange';
import type { AcademicSession, Class, Course, Enrollment } from '../schemas/records';
import { type CollectionQuery, inKeyOrder, walks } from './collection-query';
import type { ObjectMaker, OneRosterEnrollment, OneRosterUser } from './objects';
import { pathId, unknownObject } from './path-ids';
import { bounded, type RosterReader, type WalkEntry } from './roster-reader';
import {
  atClassSchools,
  collectionResponse,
  deletionsFor,
  hasRole,
  homeOrgId,
  keyedResponse,
  makerFor,
  objectQuery,
  schoolOf,
  singleObject,
  type UserRole,
  usersPageResponse,
  usersResponse,
  walkOf,
  walkResponse,
  withDeleted,
} from './rostering';
import { type Placed, walkPage } from './walk';

/** Session types the binding gives their own collections. */
export type SessionKind = 'term' | 'grading_period' | undefined;
const ofKind = (kind: SessionKind) => (s: AcademicSession) => kind === undefined || s.type === kind;
const kindName = (kind: SessionKind) =>
  kind === 'term' ? 'term' : kind === 'grading_period' ? 'grading period' : 'academic session';

/** Objects are made without the root organisation: no rostering object names it. */
const maker = (request: ApiRequest) => makerFor(request, request.config.tenantId);

/** GET /academicSessions, /terms, /gradingPeriods, and /terms/{termSourcedId}/gradingPeriods. */
export async function listAcademicSessions(
  request: ApiRequest,
  reader: RosterReader,
  kind: SessionKind,
  ofTerm = false,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'academicSessions');
  const parentId = ofTerm ? pathId(request, 'term') : undefined;
  const all = await reader.all('academic_sessions');
  let selected = all.filter(ofKind(kind));
  if (parentId !== undefined) {
    if (!all.some((s) => s.academic_session_id === parentId && s.type === 'term')) {
      throw unknownObject('term', parentId);
    }
    selected = selected.filter((s) => s.parent_id === parentId);
  }
  const make = maker(request);
  const deleted = (await deletionsFor(reader, 'academic_sessions', query))
    .filter(
      ({ kept }) =>
        (kind === undefined || kept.type === kind) && (parentId === undefined || kept.parent_id === parentId),
    )
    .map((d) => make.deletedAcademicSession(d.id, d.deleted_at, d.kept));
  return collectionResponse(
    request,
    'academicSessions',
    withDeleted(
      selected.map((s) => make.academicSession(s, all)),
      deleted,
    ),
    query,
  );
}

/** GET /academicSessions/{sourcedId}, /terms/{sourcedId}, /gradingPeriods/{sourcedId}. */
export async function getAcademicSession(
  request: ApiRequest,
  reader: RosterReader,
  kind: SessionKind,
): Promise<ApiResponse> {
  const respond = singleObject(request, 'academicSessions');
  const id = pathId(request, kindName(kind));
  const session = (await reader.get('academic_sessions', id))?.record;
  if (!session || !ofKind(kind)(session)) throw unknownObject(kindName(kind), id);
  // Its children are the sessions that name it as parent.
  const all = await reader.all('academic_sessions');
  return respond('academicSession', maker(request).academicSession(session, all));
}

/** The terms of the school's classes: GET /schools/{schoolSourcedId}/terms. */
export async function listTermsOfSchool(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'academicSessions');
  const schoolId = await schoolOf(request, reader);
  const [sessions, classes] = await Promise.all([
    reader.all('academic_sessions'),
    classesOfSchool(reader, schoolId),
  ]);
  const termIds = new Set(classes.flatMap((c) => c.term_ids));
  const make = maker(request);
  const terms = sessions.filter((s) => termIds.has(s.academic_session_id));
  return collectionResponse(
    request,
    'academicSessions',
    terms.map((s) => make.academicSession(s, sessions)),
    query,
  );
}

/** A school's classes, by id from the classes' listing: what the school has, not the whole group. */
async function classesOfSchool(reader: RosterReader, schoolId: string): Promise<Class[]> {
  return [...(await reader.getMany('classes', await reader.classIdsOfSchool(schoolId))).values()];
}

/**
 * The enrollment entries of a school's classes (role, person, enrollment id), read from the class items'
 * lists: the school's enrollments without reading them, or the district's.
 */
async function entriesOfSchool(reader: RosterReader, schoolId: string) {
  const classIds = await reader.classIdsOfSchool(schoolId);
  const lists = await reader.enrollmentListsOfClasses(classIds);
  return { classIds, entries: [...lists.values()].flatMap((l) => l.entries) };
}

/** GET /courses, and /schools/{schoolSourcedId}/courses. */
export async function listCourses(request: ApiRequest, reader: RosterReader, bySchool = false) {
  const query = objectQuery(request, 'courses');
  const make = maker(request);
  if (inKeyOrder(query)) {
    // A school's courses' keys from their listing, then the page's courses by id; or the group's page.
    const page = bySchool
      ? await keyedRecordsOf(
          reader,
          'courses',
          await reader.courseIdsOfSchool(await schoolOf(request, reader)),
          query,
        )
      : await reader.page('courses', query);
    return keyedResponse(
      request,
      'courses',
      page.records.map((c) => make.course(c)),
      query,
      page,
    );
  }
  if (!bySchool && walks(query)) {
    const walked = await walkPage(walkOf(reader, query, 'courses'), query, async (batch) =>
      batch.map((entry) => ({
        position: entry.position,
        object:
          entry.kind === 'changed'
            ? make.course(entry.record as Course)
            : make.deletedCourse(
                entry.deletion.id,
                entry.deletion.deleted_at,
                (entry.deletion as Deletion<'courses'>).kept,
              ),
      })),
    );
    return walkResponse(request, 'courses', query, walked);
  }
  const schoolId = bySchool ? await schoolOf(request, reader) : undefined;
  // A school's courses by id from their listing; the whole group only for /courses itself.
  const courses =
    schoolId === undefined
      ? await reader.all('courses')
      : [...(await reader.getMany('courses', await reader.courseIdsOfSchool(schoolId))).values()];
  const deleted = (await deletionsFor(reader, 'courses', query))
    .filter(({ kept }) => !schoolId || kept.org_id === schoolId)
    .map((d) => make.deletedCourse(d.id, d.deleted_at, d.kept));
  return collectionResponse(
    request,
    'courses',
    withDeleted(
      courses.map((c) => make.course(c)),
      deleted,
    ),
    query,
  );
}

/** GET /courses/{sourcedId}. */
export async function getCourse(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'courses');
  const id = pathId(request, 'course');
  const course = (await reader.get('courses', id))?.record;
  if (!course) throw unknownObject('course', id);
  return respond('course', maker(request).course(course));
}

/** Which classes a classes collection lists: all, or those of a school, course, term or user. */
export type ClassesOf =
  | { by: 'all' }
  | { by: 'school' }
  | { by: 'course' }
  | { by: 'term' }
  | { by: 'user'; role: UserRole | undefined };

async function selectClasses(request: ApiRequest, reader: RosterReader, of: ClassesOf): Promise<Class[]> {
  switch (of.by) {
    case 'all':
      return reader.all('classes');
    case 'school':
    case 'course':
    case 'term':
      return [...(await reader.getMany('classes', await classIdsOf(request, reader, of.by))).values()];
    case 'user': {
      // A person's classes come from their enrollments, read by id: not the whole group.
      const userId = pathId(request, of.role ?? 'user');
      const entity = (await reader.get('entities', userId))?.record;
      if (!entity || !hasRole(of.role)(entity)) throw unknownObject(of.role ?? 'user', userId);
      const enrollments = await reader.enrollmentsOfPerson(userId);
      const classIds = [...new Set(enrollments.map((e) => e.class_id))];
      return [...(await reader.getMany('classes', classIds)).values()];
    }
  }
}

/**
 * The ids of the classes of the school, course or term the path names, in id order: a school's from its
 * range of the classes' listing, a course's or term's from those filed under it (item-kinds.ts,
 * `referrer`); 404 for one that is not there.
 */
async function classIdsOf(request: ApiRequest, reader: RosterReader, by: 'school' | 'course' | 'term') {
  if (by === 'school') return reader.classIdsOfSchool(await schoolOf(request, reader));
  const id = pathId(request, by);
  if (by === 'course') {
    if (!(await reader.get('courses', id))) throw unknownObject('course', id);
    return reader.classIdsOf('course_id', id);
  }
  const term = (await reader.get('academic_sessions', id))?.record;
  if (term?.type !== 'term') throw unknownObject('term', id);
  return reader.classIdsOf('term_ids', id);
}

/** The courses of some classes, by id, for their grades and subjects. */
async function coursesOf(reader: RosterReader, classes: readonly Class[]): Promise<Map<string, Course>> {
  return reader.getMany('courses', [...new Set(classes.map((c) => c.course_id))]);
}

/** The classes' objects, with their courses read by id. */
async function classObjects(request: ApiRequest, reader: RosterReader, classes: readonly Class[]) {
  const courses = await coursesOf(reader, classes);
  const make = maker(request);
  return classes.map((c) => make.class(c, courses.get(c.course_id)));
}

/** GET /classes and the nested classes collections. */
export async function listClasses(request: ApiRequest, reader: RosterReader, of: ClassesOf) {
  const query = objectQuery(request, 'classes');
  if (of.by === 'all' && inKeyOrder(query)) {
    const page = await reader.page('classes', query);
    return keyedResponse(request, 'classes', await classObjects(request, reader, page.records), query, page);
  }
  if ((of.by === 'school' || of.by === 'course' || of.by === 'term') && inKeyOrder(query)) {
    // The keys of the school's, course's or term's classes, then the page's classes by id.
    const page = await keyedRecordsOf(reader, 'classes', await classIdsOf(request, reader, of.by), query);
    return keyedResponse(request, 'classes', await classObjects(request, reader, page.records), query, page);
  }
  if (of.by === 'all' && walks(query)) {
    const walked = await walkPage(walkOf(reader, query, 'classes'), query, async (batch) => {
      const changed = batch.flatMap((e) => (e.kind === 'changed' ? [e.record as Class] : []));
      const objects = new Map((await classObjects(request, reader, changed)).map((o) => [o.sourcedId, o]));
      const make = maker(request);
      return batch.flatMap((entry) => {
        const { position } = entry;
        if (entry.kind === 'deleted') {
          const { id, deleted_at, kept } = entry.deletion as Deletion<'classes'>;
          return [{ position, object: make.deletedClass(id, deleted_at, kept) }];
        }
        const object = objects.get((entry.record as Class).class_id);
        return object ? [{ position, object }] : [];
      });
    });
    return walkResponse(request, 'classes', query, walked);
  }
  const classes = await selectClasses(request, reader, of);
  const objects = await classObjects(request, reader, classes);
  return collectionResponse(
    request,
    'classes',
    withDeleted(objects, await deletedClasses(request, reader, of, query)),
    query,
  );
}

/**
 * The classes a delta read of a classes collection tells were deleted: those of its school, course or
 * term, as their deletions kept them; a user's classes tell of none (an ended enrollment does).
 */
async function deletedClasses(
  request: ApiRequest,
  reader: RosterReader,
  of: ClassesOf,
  query: CollectionQuery,
) {
  if (of.by === 'user') return [];
  const named = of.by === 'all' ? undefined : pathId(request, of.by);
  const make = maker(request);
  return (await deletionsFor(reader, 'classes', query))
    .filter(
      ({ kept }) =>
        named === undefined ||
        (of.by === 'school' && kept.school_id === named) ||
        (of.by === 'course' && kept.course_id === named) ||
        (of.by === 'term' && (kept.term_ids ?? []).includes(named)),
    )
    .map((d) => make.deletedClass(d.id, d.deleted_at, d.kept));
}

/** GET /classes/{sourcedId}. */
export async function getClass(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'classes');
  const id = pathId(request, 'class');
  const cls = (await reader.get('classes', id))?.record;
  if (!cls) throw unknownObject('class', id);
  const course = (await reader.get('courses', cls.course_id))?.record;
  return respond('class', maker(request).class(cls, course));
}

/** The class a nested path names, within the school it names too where it does. */
async function classOf(request: ApiRequest, reader: RosterReader): Promise<Class> {
  // Under /schools/{sourcedId}/classes/{classSourcedId} the school is named first; under /classes, the class.
  const inSchool = request.path.classSourcedId !== undefined;
  const schoolId = inSchool ? await schoolOf(request, reader) : undefined;
  const id = pathId(request, 'class', inSchool ? 'classSourcedId' : 'sourcedId');
  const cls = (await reader.get('classes', id))?.record;
  if (!cls || (schoolId !== undefined && cls.school_id !== schoolId)) throw unknownObject('class', id);
  return cls;
}

/**
 * The page of these ids (in id order) a read in sourcedId order asks for, with their total and the id its
 * next link starts after.
 */
function keyedPageOf(ids: readonly string[], query: CollectionQuery) {
  const page = pageOfIds(ids, { itemsPerPage: query.limit, after: query.after, skip: query.offset });
  return { ids: page.ids, total: ids.length, next: page.hasMore ? page.ids.at(-1) : undefined };
}

/** The page of these ids of a group (sorted, from a listing), as `keyedPageOf` cuts it, with its records read by id. */
async function keyedRecordsOf<G extends RecordGroup>(
  reader: RosterReader,
  group: G,
  ids: readonly string[],
  query: CollectionQuery,
) {
  const page = keyedPageOf(ids, query);
  const found = await reader.getMany(group, page.ids);
  return { ...page, records: page.ids.flatMap((id) => found.get(id) ?? []) };
}

/** Where a school's or class's people are enrolled: its classes, with the role. */
interface EnrolledAs {
  classIds: readonly string[];
  role: UserRole;
}

/**
 * The people a delta read of a school's or class's students or teachers tells were deleted: those one of
 * whose enrollments there with the role was deleted in its window and who are not there with it now
 * (`present`), each at its latest such deletion.
 */
async function leftPeople(
  reader: RosterReader,
  query: CollectionQuery,
  { classIds, role }: EnrolledAs,
  present: readonly string[],
  maker: ObjectMaker,
): Promise<OneRosterUser[]> {
  const classes = new Set(classIds);
  const here = new Set(present);
  const latest = new Map<string, string>();
  for (const { kept, deleted_at } of await deletionsFor(reader, 'enrollments', query)) {
    const person = kept.entity_id;
    if (person === undefined || here.has(person) || kept.role !== role) continue;
    if (kept.class_id === undefined || !classes.has(kept.class_id)) continue;
    if (!((latest.get(person) ?? '') > deleted_at)) latest.set(person, deleted_at);
  }
  return [...latest].map(([id, at]) => maker.deletedUser(id, at, role));
}

/**
 * The users response for people known by id (sorted): in sourcedId order without a filter, a page of
 * them is read by id; otherwise all of them, refused past MAX_WHOLE_GROUP, and a delta read also tells
 * of those who left (`leftPeople`).
 */
async function usersOfIds(
  request: ApiRequest,
  reader: RosterReader,
  query: CollectionQuery,
  ids: string[],
  where: EnrolledAs,
) {
  if (inKeyOrder(query)) {
    const page = keyedPageOf(ids, query);
    const people = (await reader.entitiesInOrder(page.ids)).filter(hasRole(undefined));
    return usersPageResponse(request, reader, query, people, page);
  }
  bounded(ids.length, 'users');
  const people = (await reader.entitiesInOrder(ids)).filter(hasRole(undefined));
  return usersResponse(request, reader, query, people, await homeOrgId(request, reader), (maker) =>
    leftPeople(reader, query, where, ids, maker),
  );
}

/** The people of some enrollment entries with the role, each once, in id order. */
const peopleOf = (entries: readonly EnrollmentEntry[], role: UserRole) =>
  [...new Set(entries.filter((e) => e.role === role).map((e) => e.otherId))].sort();

/**
 * GET /classes/{classSourcedId}/students and /teachers (also under /schools/{schoolSourcedId}): the
 * people the class's enrollment list names with the role, without reading the enrollments.
 */
export async function listUsersOfClass(request: ApiRequest, reader: RosterReader, role: UserRole) {
  const query = objectQuery(request, 'users');
  const cls = await classOf(request, reader);
  const lists = await reader.enrollmentListsOfClasses([cls.class_id]);
  const people = peopleOf(lists.get(cls.class_id)?.entries ?? [], role);
  return usersOfIds(request, reader, query, people, { classIds: [cls.class_id], role });
}

/**
 * GET /schools/{schoolSourcedId}/students and /teachers: the users enrolled in its classes with the role,
 * found in the classes' enrollment lists.
 */
export async function listUsersOfSchool(request: ApiRequest, reader: RosterReader, role: UserRole) {
  const query = objectQuery(request, 'users');
  const { classIds, entries } = await entriesOfSchool(reader, await schoolOf(request, reader));
  return usersOfIds(request, reader, query, peopleOf(entries, role), { classIds, role });
}

/** Which enrollments a collection lists: all, a school's, or one class's of a school. */
export type EnrollmentsOf = 'all' | 'school' | 'class';

/** GET /enrollments, /schools/{schoolSourcedId}/enrollments and /schools/{..}/classes/{..}/enrollments. */
export async function listEnrollments(request: ApiRequest, reader: RosterReader, of: EnrollmentsOf) {
  const query = objectQuery(request, 'enrollments');
  if (of === 'all' && inKeyOrder(query)) {
    const page = await reader.page('enrollments', query);
    const schools = await reader.schoolsOfClasses([...new Set(page.records.map((e) => e.class_id))]);
    const make = maker(request);
    const objects = page.records.flatMap((e) => {
      const school = schools.get(e.class_id);
      return school ? [make.enrollment(e, { school_id: school })] : [];
    });
    return keyedResponse(request, 'enrollments', objects, query, page);
  }
  if (of === 'all' && walks(query)) {
    const walked = await walkPage(
      walkOf(reader, query, 'enrollments'),
      query,
      enrollmentsOfWalk(request, reader),
    );
    return walkResponse(request, 'enrollments', query, walked);
  }
  let enrollments: Enrollment[];
  let classes: Map<string, Pick<Class, 'school_id'>>;
  if (of === 'class') {
    const cls = await classOf(request, reader);
    enrollments = await reader.enrollmentsOfClass(cls.class_id);
    classes = new Map([[cls.class_id, cls]]);
  } else if (of === 'school') {
    const schoolId = await schoolOf(request, reader);
    const { classIds, entries } = await entriesOfSchool(reader, schoolId);
    const ids = entries.map((e) => e.enrollmentId).sort();
    // Every class listed is the school's: their items, kilobytes each, need not be read for it.
    classes = new Map(classIds.map((id) => [id, { school_id: schoolId }]));
    if (inKeyOrder(query)) {
      const page = keyedPageOf(ids, query);
      const found = await reader.getMany('enrollments', page.ids);
      const make = maker(request);
      const objects = page.ids.flatMap((id) => {
        const e = found.get(id);
        const cls = e && classes.get(e.class_id);
        return e && cls ? [make.enrollment(e, cls)] : [];
      });
      return keyedResponse(request, 'enrollments', objects, query, page);
    }
    bounded(ids.length, 'enrollments of the school');
    enrollments = [...(await reader.getMany('enrollments', ids)).values()];
  } else {
    const [all, allClasses] = await Promise.all([reader.all('enrollments'), reader.all('classes')]);
    classes = new Map(allClasses.map((c) => [c.class_id, c]));
    enrollments = all;
  }
  const make = maker(request);
  const objects = enrollments.flatMap((e) => {
    const cls = classes.get(e.class_id);
    return cls ? [make.enrollment(e, cls)] : [];
  });
  const schoolId = of === 'school' ? pathId(request, 'school') : undefined;
  const onlyClass = of === 'class' ? [...classes.keys()][0] : undefined;
  const deletions = (await deletionsFor(reader, 'enrollments', query)).filter(
    ({ kept }) => onlyClass === undefined || kept.class_id === onlyClass,
  );
  // A deleted enrollment is at its class's school: the class read by id where it was not read already.
  const missing = [
    ...new Set(
      deletions.flatMap(({ kept }) => (kept.class_id && !classes.has(kept.class_id) ? [kept.class_id] : [])),
    ),
  ];
  for (const [id, cls] of await reader.getMany('classes', missing)) classes.set(id, cls);
  const deleted = deletions.flatMap((d) => {
    const school = d.kept.class_id ? classes.get(d.kept.class_id)?.school_id : undefined;
    if (schoolId !== undefined && school !== schoolId) return [];
    return [make.deletedEnrollment(d.id, d.deleted_at, d.kept, school)];
  });
  return collectionResponse(request, 'enrollments', withDeleted(objects, deleted), query);
}

/**
 * Makes a batch of an enrollments walk into enrollments: each at its class's school, a deletion from what
 * it kept (atClassSchools).
 */
const enrollmentsOfWalk =
  (request: ApiRequest, reader: RosterReader) =>
  (batch: WalkEntry[]): Promise<Placed<OneRosterEnrollment>[]> => {
    const make = maker(request);
    return atClassSchools<'enrollments', OneRosterEnrollment>(reader, batch, {
      changed: (enrollment, school) => make.enrollment(enrollment, { school_id: school }),
      deleted: ({ id, deleted_at, kept }, school) => make.deletedEnrollment(id, deleted_at, kept, school),
    });
  };

/** GET /enrollments/{sourcedId}. */
export async function getEnrollment(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'enrollments');
  const id = pathId(request, 'enrollment');
  const enrollment = (await reader.get('enrollments', id))?.record;
  const cls = enrollment && (await reader.get('classes', enrollment.class_id))?.record;
  if (!enrollment || !cls) throw unknownObject('enrollment', id);
  return respond('enrollment', maker(request).enrollment(enrollment, cls));
}
