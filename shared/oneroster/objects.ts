// The OneRoster 1.2 objects (Rostering service model, and the Gradebook's categories and line items) made from the native
// records. A user is a person
// entity and an org an organisation entity, so every sourcedId is the native entity_id, and a user's
// demographics share its sourcedId, as the binding asks. docs/oneroster.md lists each field's source.
import { createHash } from 'node:crypto';
import type { Tombstone } from '../data/tombstones';
import type { ResultStatus } from '../domain/gradebook';
import type {
  AcademicSession,
  AssessmentLineItem,
  AssessmentResult,
  Category,
  Class,
  Course,
  Enrollment,
  Entity,
  EntityRole,
  LineItem,
  Result,
  ScoreScale,
  Staff,
  Student,
  Teacher,
  Tutor,
} from '../schemas/records';
import { type Affiliations, unaffiliated } from './affiliations';
import { GRADEBOOK_PATH, ROSTERING_PATH } from './paths';

/** An object that exists is `active`; one a delta read tells was deleted, `tobedeleted`. */
export type ObjectStatus = 'active' | 'tobedeleted';

/** A reference to another object (GUIDRef), with the address it is read at. */
export interface GuidRef<T extends string> {
  href: string;
  sourcedId: string;
  type: T;
}

export interface OneRosterRole {
  roleType: 'primary' | 'secondary';
  role: string;
  org: GuidRef<'org'>;
}

export interface OneRosterUser {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  userIds: { type: string; identifier: string }[];
  enabledUser: 'true' | 'false';
  givenName: string;
  familyName: string;
  roles: OneRosterRole[];
  agents: GuidRef<'user'>[];
  primaryOrg: GuidRef<'org'>;
  email: string;
}

export interface OneRosterOrg {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  name: string;
  type: string;
  identifier: string;
  parent?: GuidRef<'org'>;
  children: GuidRef<'org'>[];
}

export interface OneRosterDemographics {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  /** Absent on a deleted person's, which keeps nothing of them. */
  birthDate?: string;
  sex?: 'male' | 'female' | 'other' | 'unspecified';
  cityOfBirth?: string;
}

export interface OneRosterAcademicSession {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  startDate: string;
  endDate: string;
  type: string;
  parent?: GuidRef<'academicSession'>;
  children: GuidRef<'academicSession'>[];
  schoolYear: string;
}

export interface OneRosterCourse {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  courseCode: string;
  grades: string[];
  subjects: string[];
  org: GuidRef<'org'>;
}

/**
 * A gradebook category. The binding's category has no school year (1.2 Final), so the native
 * `school_year_id` stays native.
 */
export interface OneRosterCategory {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  weight: number;
}

/**
 * A class's score scale: the native scale of a class (its `class_id`), its type `numeric` or `letter`.
 * A numeric scale's value is its range, from its minimum to its maximum, on both sides; a letter scale's
 * values are its letters, best first, each its own on both sides. The binding's scale belongs to a class,
 * so the tenant's scales, which name none, are not served.
 */
export interface OneRosterScoreScale {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  type: string;
  class: GuidRef<'class'>;
  scoreScaleValue: { itemValueLHS: string; itemValueRHS: string }[];
}

/** A native score scale that is a class's own: the binding's score scales. */
export type ClassScale = ScoreScale & { class_id: string };

/** A numeric scale's range as the binding writes one: `x - y`. */
const rangeValue = (minimum: number, maximum: number) => `${minimum} - ${maximum}`;

/**
 * A class's line item. Its dates are the native days at midnight UTC (the binding's are date-times); its
 * school is its class's. It refers to its score scale where that is a class's (the binding's scales each
 * belong to a class); a range is given where the line item has one.
 */
export interface OneRosterLineItem {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  description: string;
  assignDate: string;
  dueDate: string;
  class: GuidRef<'class'>;
  school: GuidRef<'org'>;
  category: GuidRef<'category'>;
  gradingPeriod?: GuidRef<'academicSession'>;
  scoreScale?: GuidRef<'scoreScale'>;
  resultValueMin?: number;
  resultValueMax?: number;
}

/**
 * A student's result for a line item of their class. Its student is the user (the person entity) whose
 * student record the native result names; its score date is a date, as the binding's is.
 */
export interface OneRosterResult {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  lineItem: GuidRef<'lineItem'>;
  student: GuidRef<'user'>;
  class: GuidRef<'class'>;
  scoreStatus: ResultStatus;
  score?: number;
  textScore?: string;
  scoreDate: string;
  comment?: string;
}

/**
 * An assessment: of a class where it has one, part of its parent where it has one, on its score scale
 * where that is a class's (as a line item), with its range where it has one.
 */
export interface OneRosterAssessmentLineItem {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  description?: string;
  class?: GuidRef<'class'>;
  parentAssessmentLineItem?: GuidRef<'assessmentLineItem'>;
  scoreScale?: GuidRef<'scoreScale'>;
  resultValueMin?: number;
  resultValueMax?: number;
}

/** A student's result in an assessment, its student the user whose student record the native one names. */
export interface OneRosterAssessmentResult {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  assessmentLineItem: GuidRef<'assessmentLineItem'>;
  student: GuidRef<'user'>;
  score?: number;
  textScore?: string;
  scoreDate: string;
  scorePercentile?: number;
  scoreStatus: ResultStatus;
  comment?: string;
}

/** A native day as the binding's date-times write it: its midnight, UTC. */
const midnight = (day: string) => `${day}T00:00:00.000Z`;

export interface OneRosterClass {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  title: string;
  classCode: string;
  classType: string;
  location: string;
  grades: string[];
  subjects: string[];
  course: GuidRef<'course'>;
  school: GuidRef<'org'>;
  terms: GuidRef<'academicSession'>[];
  periods: string[];
}

export interface OneRosterEnrollment {
  sourcedId: string;
  status: ObjectStatus;
  dateLastModified: string;
  user: GuidRef<'user'>;
  class: GuidRef<'class'>;
  school: GuidRef<'org'>;
  role: string;
  primary: 'true' | 'false';
  beginDate?: string;
  endDate?: string;
}

/** The native gender values (free text, in English or Portuguese) that name each of the binding's sexes. */
const sexes: Record<string, OneRosterDemographics['sex']> = {
  male: 'male',
  m: 'male',
  masculino: 'male',
  female: 'female',
  f: 'female',
  feminino: 'female',
  '': 'unspecified',
  unspecified: 'unspecified',
  unknown: 'unspecified',
  'not stated': 'unspecified',
  'não especificado': 'unspecified',
};

/** The binding's sex (male, female, other, unspecified) of a native gender: any other value is `other`. */
export const sexOf = (gender: string): OneRosterDemographics['sex'] =>
  sexes[gender.trim().toLowerCase()] ?? 'other';

/** The binding's session types for the native ones. */
const sessionTypes: Record<AcademicSession['type'], string> = {
  school_year: 'schoolYear',
  term: 'term',
  semester: 'semester',
  grading_period: 'gradingPeriod',
};

/** The binding's enrollment roles are administrator, proctor, student and teacher; an aide is an extension. */
const enrollmentRoles: Record<Enrollment['role'], string> = {
  student: 'student',
  teacher: 'teacher',
  administrator: 'administrator',
  proctor: 'proctor',
  aide: 'ext:aide',
};

/** The native fields an organisation entity carries in the rostering model (absent on older ones). */
interface OrgFields {
  org_type?: string | null;
  parent_id?: string | null;
}

/** Which native role is which OneRoster role: a tutor is a student's guardian; staff have no role of their own. */
export const oneRosterRoles: Record<EntityRole['role'], string> = {
  student: 'student',
  teacher: 'teacher',
  tutor: 'guardian',
  staff: 'ext:staff',
};

/**
 * A user's givenName and familyName from the one native `name`: the first word and the rest. Both are
 * required by the CSV binding, so a one-word name is both, and a name of no word at all is `-` in both.
 */
export function nameParts(name: string): { givenName: string; familyName: string } {
  const [first = '-', ...rest] = name.trim().split(/\s+/).filter(Boolean);
  return { givenName: first, familyName: rest.length > 0 ? rest.join(' ') : first };
}
export { GRADEBOOK_PATH, ROSTERING_PATH };

export class ObjectMaker {
  constructor(
    /** The service's base address, for the href of references. */
    private readonly baseUrl: string,
    /**
     * The org every role is at: the tenant's root organisation (no parent; a district first). Persons are
     * not tied to schools natively until enrollments do it.
     */
    private readonly homeOrgId: string,
  ) {}

  private ref<T extends string>(type: T, collection: string, id: string, base = ROSTERING_PATH): GuidRef<T> {
    return { href: `${this.baseUrl}${base}/${collection}/${id}`, sourcedId: id, type };
  }

  orgRef(id: string): GuidRef<'org'> {
    return this.ref('org', 'orgs', id);
  }

  academicSession(session: AcademicSession, all: readonly AcademicSession[]): OneRosterAcademicSession {
    const sessionRef = (id: string) => this.ref('academicSession', 'academicSessions', id);
    return {
      sourcedId: session.academic_session_id,
      status: 'active',
      dateLastModified: session.updated_at,
      title: session.title,
      startDate: session.start_date,
      endDate: session.end_date,
      type: sessionTypes[session.type],
      ...(session.parent_id ? { parent: sessionRef(session.parent_id) } : {}),
      children: all
        .filter((s) => s.parent_id === session.academic_session_id)
        .map((s) => sessionRef(s.academic_session_id)),
      schoolYear: session.school_year,
    };
  }

  course(course: Course): OneRosterCourse {
    return {
      sourcedId: course.course_id,
      status: 'active',
      dateLastModified: course.updated_at,
      title: course.title,
      courseCode: course.course_code,
      grades: course.grades,
      subjects: course.subjects,
      org: this.orgRef(course.org_id),
    };
  }

  category(category: Category): OneRosterCategory {
    return {
      sourcedId: category.category_id,
      status: 'active',
      dateLastModified: category.updated_at,
      title: category.title,
      weight: category.weight,
    };
  }

  /** A class's score scale. */
  scoreScale(scale: ClassScale): OneRosterScoreScale {
    return {
      sourcedId: scale.score_scale_id,
      status: 'active',
      dateLastModified: scale.updated_at,
      title: scale.title,
      type: scale.type,
      class: this.ref('class', 'classes', scale.class_id),
      scoreScaleValue:
        scale.minimum !== null && scale.maximum !== null
          ? [
              {
                itemValueLHS: rangeValue(scale.minimum, scale.maximum),
                itemValueRHS: rangeValue(scale.minimum, scale.maximum),
              },
            ]
          : scale.values.map((value) => ({ itemValueLHS: value, itemValueRHS: value })),
    };
  }

  /**
   * A line item, at its class's school, on its score scale where that scale is a class's (`classScale`,
   * whether the caller found it so).
   */
  lineItem(item: LineItem, schoolId: string, classScale = false): OneRosterLineItem {
    return {
      sourcedId: item.line_item_id,
      status: 'active',
      dateLastModified: item.updated_at,
      title: item.title,
      description: item.description,
      assignDate: midnight(item.assign_date),
      dueDate: midnight(item.due_date),
      class: this.ref('class', 'classes', item.class_id),
      school: this.orgRef(schoolId),
      category: this.ref('category', 'categories', item.category_id, GRADEBOOK_PATH),
      ...(item.grading_period_id
        ? { gradingPeriod: this.ref('academicSession', 'gradingPeriods', item.grading_period_id) }
        : {}),
      ...(classScale && item.score_scale_id
        ? { scoreScale: this.ref('scoreScale', 'scoreScales', item.score_scale_id, GRADEBOOK_PATH) }
        : {}),
      ...(item.result_value_min === null ? {} : { resultValueMin: item.result_value_min }),
      ...(item.result_value_max === null ? {} : { resultValueMax: item.result_value_max }),
    };
  }

  /** A result, its student named by their user's sourcedId (the entity of the result's student record). */
  result(result: Result, userId: string): OneRosterResult {
    return {
      sourcedId: result.result_id,
      status: 'active',
      dateLastModified: result.updated_at,
      lineItem: this.ref('lineItem', 'lineItems', result.line_item_id, GRADEBOOK_PATH),
      student: this.ref('user', 'users', userId),
      class: this.ref('class', 'classes', result.class_id),
      scoreStatus: result.status,
      ...(result.score === null ? {} : { score: result.score }),
      ...(result.text_score === null ? {} : { textScore: result.text_score }),
      scoreDate: result.score_date,
      ...(result.comment === '' ? {} : { comment: result.comment }),
    };
  }

  /** An assessment, on its score scale where that scale is a class's (`classScale`, as for a line item). */
  assessmentLineItem(item: AssessmentLineItem, classScale = false): OneRosterAssessmentLineItem {
    return {
      sourcedId: item.assessment_line_item_id,
      status: 'active',
      dateLastModified: item.updated_at,
      title: item.title,
      ...(item.description === '' ? {} : { description: item.description }),
      ...(item.class_id ? { class: this.ref('class', 'classes', item.class_id) } : {}),
      ...(item.parent_id ? { parentAssessmentLineItem: this.assessmentRef(item.parent_id) } : {}),
      ...(classScale && item.score_scale_id
        ? { scoreScale: this.ref('scoreScale', 'scoreScales', item.score_scale_id, GRADEBOOK_PATH) }
        : {}),
      ...(item.result_value_min === null ? {} : { resultValueMin: item.result_value_min }),
      ...(item.result_value_max === null ? {} : { resultValueMax: item.result_value_max }),
    };
  }

  /** An assessment result, its student named by their user's sourcedId. */
  assessmentResult(result: AssessmentResult, userId: string): OneRosterAssessmentResult {
    return {
      sourcedId: result.assessment_result_id,
      status: 'active',
      dateLastModified: result.updated_at,
      assessmentLineItem: this.assessmentRef(result.assessment_line_item_id),
      student: this.ref('user', 'users', userId),
      ...(result.score === null ? {} : { score: result.score }),
      ...(result.text_score === null ? {} : { textScore: result.text_score }),
      scoreDate: result.score_date,
      ...(result.score_percentile === null ? {} : { scorePercentile: result.score_percentile }),
      scoreStatus: result.status,
      ...(result.comment === '' ? {} : { comment: result.comment }),
    };
  }

  /** An assessment deleted: its class where it had one. */
  deletedAssessmentLineItem(
    id: string,
    deletedAt: string,
    kept: Tombstone<'assessment_line_items'>,
  ): OneRosterAssessmentLineItem {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      ...(kept.class_id ? { class: this.ref('class', 'classes', kept.class_id) } : {}),
    };
  }

  /** An assessment result deleted: its assessment, and its student by their user where still known. */
  deletedAssessmentResult(
    id: string,
    deletedAt: string,
    kept: Tombstone<'assessment_results'>,
    userId: string | undefined,
  ): OneRosterAssessmentResult {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      assessmentLineItem: this.assessmentRef(kept.assessment_line_item_id ?? id),
      student: this.ref('user', 'users', userId ?? kept.student_id ?? id),
      scoreDate: deletedAt.slice(0, 10),
      scoreStatus: 'not submitted',
    };
  }

  private assessmentRef(id: string): GuidRef<'assessmentLineItem'> {
    return this.ref('assessmentLineItem', 'assessmentLineItems', id, GRADEBOOK_PATH);
  }

  /** A class, with the grades and subjects of its course where that is at hand. */
  class(cls: Class, course: Course | undefined): OneRosterClass {
    return {
      sourcedId: cls.class_id,
      status: 'active',
      dateLastModified: cls.updated_at,
      title: cls.title,
      classCode: cls.class_code,
      classType: cls.class_type,
      location: cls.location,
      grades: course?.grades ?? [],
      subjects: course?.subjects ?? [],
      course: this.ref('course', 'courses', cls.course_id),
      school: this.orgRef(cls.school_id),
      terms: cls.term_ids.map((id) => this.ref('academicSession', 'academicSessions', id)),
      periods: cls.periods,
    };
  }

  /** An enrollment, at the school of its class. */
  enrollment(enrollment: Enrollment, cls: Pick<Class, 'school_id'>): OneRosterEnrollment {
    return {
      sourcedId: enrollment.enrollment_id,
      status: 'active',
      dateLastModified: enrollment.updated_at,
      user: this.ref('user', 'users', enrollment.entity_id),
      class: this.ref('class', 'classes', enrollment.class_id),
      school: this.orgRef(cls.school_id),
      role: enrollmentRoles[enrollment.role],
      primary: enrollment.primary ? 'true' : 'false',
      ...(enrollment.begin_date ? { beginDate: enrollment.begin_date } : {}),
      ...(enrollment.end_date ? { endDate: enrollment.end_date } : {}),
    };
  }

  /**
   * A user. `enabled` says whether any of the person's role records is active (`ative`); `affiliations`
   * where each role is and whom the person is linked to (affiliations.ts). The caller reads both.
   */
  user(entity: Entity, enabled: boolean, affiliations: Affiliations = unaffiliated): OneRosterUser {
    const { givenName, familyName } = nameParts(entity.name);
    const placed = entity.roles.flatMap(({ role }) =>
      (affiliations.schools[role] ?? [this.homeOrgId]).map((org) => ({ role, org })),
    );
    const roles = placed
      .filter((r, i) => placed.findIndex((o) => o.role === r.role && o.org === r.org) === i)
      .map(({ role, org }, i) => ({
        roleType: i === 0 ? ('primary' as const) : ('secondary' as const),
        role: oneRosterRoles[role],
        org: this.orgRef(org),
      }));
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: entity.updated_at,
      userIds: entity.roles.map(({ role, id }) => ({ type: `${role}_id`, identifier: id })),
      enabledUser: enabled ? 'true' : 'false',
      givenName,
      familyName,
      roles,
      agents: affiliations.agents.map((id) => this.ref('user', 'users', id)),
      primaryOrg: roles[0]?.org ?? this.orgRef(this.homeOrgId),
      email: entity.email,
    };
  }

  /** An organisation, with the children that name it as their parent among `all`. */
  org(entity: Entity, all: readonly Entity[]): OneRosterOrg {
    const { org_type, parent_id } = entity as Entity & OrgFields;
    const children = all
      .filter((e) => (e as Entity & OrgFields).parent_id === entity.entity_id)
      .map((e) => this.orgRef(e.entity_id));
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: entity.updated_at,
      name: entity.name,
      type: org_type ?? 'ext:unspecified',
      identifier: '',
      ...(parent_id ? { parent: this.orgRef(parent_id) } : {}),
      children,
    };
  }

  /**
   * A user deleted, as a delta read tells of it: its sourcedId, the role it was deleted from, and no
   * name or address left (the binding requires the names and a role, so they are there, empty).
   */
  deletedUser(entityId: string, deletedAt: string, role: EntityRole['role']): OneRosterUser {
    const org = this.orgRef(this.homeOrgId);
    return {
      sourcedId: entityId,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      userIds: [],
      enabledUser: 'false',
      givenName: '',
      familyName: '',
      roles: [{ roleType: 'primary', role: oneRosterRoles[role], org }],
      agents: [],
      primaryOrg: org,
      email: '',
    };
  }

  deletedOrg(entityId: string, deletedAt: string, orgType: string | undefined): OneRosterOrg {
    return {
      sourcedId: entityId,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      name: '',
      type: orgType ?? 'ext:unspecified',
      identifier: '',
      children: [],
    };
  }

  deletedAcademicSession(
    id: string,
    deletedAt: string,
    kept: Tombstone<'academic_sessions'>,
  ): OneRosterAcademicSession {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      startDate: kept.start_date ?? deletedAt.slice(0, 10),
      endDate: kept.end_date ?? deletedAt.slice(0, 10),
      type: kept.type ? sessionTypes[kept.type] : 'ext:unknown',
      ...(kept.parent_id ? { parent: this.ref('academicSession', 'academicSessions', kept.parent_id) } : {}),
      children: [],
      schoolYear: kept.school_year ?? '',
    };
  }

  deletedCourse(id: string, deletedAt: string, kept: Tombstone<'courses'>): OneRosterCourse {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      courseCode: '',
      grades: [],
      subjects: [],
      org: this.orgRef(kept.org_id ?? this.homeOrgId),
    };
  }

  deletedCategory(id: string, deletedAt: string): OneRosterCategory {
    return { sourcedId: id, status: 'tobedeleted', dateLastModified: deletedAt, title: '', weight: 0 };
  }

  /** A class's score scale deleted: its type and class as its tombstone kept them, no values but an empty one. */
  deletedScoreScale(id: string, deletedAt: string, kept: Tombstone<'score_scales'>): OneRosterScoreScale {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      type: kept.type ?? '',
      class: this.ref('class', 'classes', kept.class_id ?? id),
      scoreScaleValue: [{ itemValueLHS: '', itemValueRHS: '' }],
    };
  }

  /** A line item deleted, at the school of its class where the class is still there, else the root org. */
  deletedLineItem(
    id: string,
    deletedAt: string,
    kept: Tombstone<'line_items'>,
    schoolId: string | undefined,
  ): OneRosterLineItem {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      description: '',
      assignDate: deletedAt,
      dueDate: deletedAt,
      class: this.ref('class', 'classes', kept.class_id ?? id),
      school: this.orgRef(schoolId ?? this.homeOrgId),
      category: this.ref('category', 'categories', kept.category_id ?? id, GRADEBOOK_PATH),
    };
  }

  /** A result deleted: what its tombstone kept, its student by their user where that is still known. */
  deletedResult(
    id: string,
    deletedAt: string,
    kept: Tombstone<'results'>,
    userId: string | undefined,
  ): OneRosterResult {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      lineItem: this.ref('lineItem', 'lineItems', kept.line_item_id ?? id, GRADEBOOK_PATH),
      student: this.ref('user', 'users', userId ?? kept.student_id ?? id),
      class: this.ref('class', 'classes', kept.class_id ?? id),
      scoreStatus: 'not submitted',
      scoreDate: deletedAt.slice(0, 10),
    };
  }

  deletedClass(id: string, deletedAt: string, kept: Tombstone<'classes'>): OneRosterClass {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      title: '',
      classCode: '',
      classType: 'scheduled',
      location: '',
      grades: [],
      subjects: [],
      course: this.ref('course', 'courses', kept.course_id ?? id),
      school: this.orgRef(kept.school_id ?? this.homeOrgId),
      terms: (kept.term_ids ?? []).map((t) => this.ref('academicSession', 'academicSessions', t)),
      periods: [],
    };
  }

  /** An enrollment deleted, at the school of its class where the class is still there, else the root org. */
  deletedEnrollment(
    id: string,
    deletedAt: string,
    kept: Tombstone<'enrollments'>,
    schoolId: string | undefined,
  ): OneRosterEnrollment {
    return {
      sourcedId: id,
      status: 'tobedeleted',
      dateLastModified: deletedAt,
      user: this.ref('user', 'users', kept.entity_id ?? id),
      class: this.ref('class', 'classes', kept.class_id ?? id),
      school: this.orgRef(schoolId ?? this.homeOrgId),
      role: kept.role ? enrollmentRoles[kept.role] : 'student',
      primary: 'false',
    };
  }

  /** A deleted user's demographics: what the binding requires, nothing of the person. */
  deletedDemographics(entityId: string, deletedAt: string): OneRosterDemographics {
    return { sourcedId: entityId, status: 'tobedeleted', dateLastModified: deletedAt };
  }

  /** A person's demographics, from the record of their first role (where birth date and gender live). */
  demographics(
    entity: Entity,
    person: Pick<Student | Teacher | Tutor | Staff, 'updated_at' | 'birth_date' | 'gender' | 'naturality'>,
  ): OneRosterDemographics {
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: [entity.updated_at, person.updated_at].sort()[1] as string,
      birthDate: person.birth_date,
      sex: sexOf(person.gender),
      cityOfBirth: person.naturality,
    };
  }
}

/** The field names of each kind of object, for checking `fields`, `sort` and `filter`. */
export const objectFields = {
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'userIds',
    'enabledUser',
    'givenName',
    'familyName',
    'roles',
    'agents',
    'primaryOrg',
    'email',
  ],
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parent', 'children'],
  demographics: ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex', 'cityOfBirth'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'startDate',
    'endDate',
    'type',
    'parent',
    'children',
    'schoolYear',
  ],
  courses: ['sourcedId', 'status', 'dateLastModified', 'title', 'courseCode', 'grades', 'subjects', 'org'],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'classCode',
    'classType',
    'location',
    'grades',
    'subjects',
    'course',
    'school',
    'terms',
    'periods',
  ],
  categories: ['sourcedId', 'status', 'dateLastModified', 'title', 'weight'],
  scoreScales: ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'class', 'scoreScaleValue'],
  lineItems: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'description',
    'assignDate',
    'dueDate',
    'class',
    'school',
    'category',
    'gradingPeriod',
    'scoreScale',
    'resultValueMin',
    'resultValueMax',
  ],
  results: [
    'sourcedId',
    'status',
    'dateLastModified',
    'lineItem',
    'student',
    'class',
    'scoreStatus',
    'score',
    'textScore',
    'scoreDate',
    'comment',
  ],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'user',
    'class',
    'school',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
  assessmentLineItems: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'description',
    'class',
    'parentAssessmentLineItem',
    'scoreScale',
    'resultValueMin',
    'resultValueMax',
  ],
  assessmentResults: [
    'sourcedId',
    'status',
    'dateLastModified',
    'assessmentLineItem',
    'student',
    'score',
    'textScore',
    'scoreDate',
    'scorePercentile',
    'scoreStatus',
    'comment',
  ],
} as const satisfies Record<string, readonly string[]>;

/** The tenant's root organisation: one without a parent, a district first, then the lowest id. */
export function rootOrganisation(entities: readonly Entity[]): Entity | undefined {
  const roots = entities.filter(
    (e) => e.entity_type === 'organisation' && !(e as Entity & OrgFields).parent_id,
  );
  return (
    roots.find((e) => (e as Entity & OrgFields).org_type === 'district') ??
    [...roots].sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1))[0]
  );
}

/** RFC 9562's namespace for names that are URLs, for the name-based UUID of a tenant's organisation. */
const URL_NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');

/**
 * The organisation a tenant without any organisation entity is served as, so that every user's roles name
 * an org that can be read: a district named after the tenant, with a name-based (version 5) UUID of the
 * tenant id, the same on every request.
 */
export function tenantOrganisation(tenantId: string): Entity {
  const hash = createHash('sha1').update(URL_NAMESPACE).update(`urn:tenant:${tenantId}`).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  const epoch = new Date(0).toISOString();
  return {
    entity_id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    entity_type: 'organisation',
    name: tenantId,
    email: `${tenantId}@invalid.example`,
    addresses: [],
    contacts: [],
    documents: [],
    bankAccounts: [],
    roles: [],
    org_type: 'district',
    parent_id: null,
    created_at: epoch,
    updated_at: epoch,
  };
}

/** The tenant's organisations, or the tenant's own one when it has none. */
export function organisationsOf(entities: readonly Entity[], tenantId: string): Entity[] {
  const organisations = entities.filter((e) => e.entity_type === 'organisation');
  return organisations.length > 0 ? organisations : [tenantOrganisation(tenantId)];
}

/** The org every user's roles are at: the root organisation, or the tenant's own one when it has none. */
export const homeOrganisation = (entities: readonly Entity[], tenantId: string): Entity =>
  rootOrganisation(entities) ?? tenantOrganisation(tenantId);
