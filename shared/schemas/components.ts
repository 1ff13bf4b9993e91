// The component registry: every schema the API description names, each registered once under its
// component name (the specification's name where it gives one, interface-spec section 2.8). Route rows
// refer to these names; a new request or response shape is one schema plus one line here.
import * as z from 'zod';
import { groups, type RecordGroup } from '../domain/groups';
import {
  Client,
  ClientCreated,
  ClientRegistrationRequest,
  ClientReplaceRequest,
  ClientSecretCreated,
  ClientSecretRequest,
  ClientSecretSummary,
  ClientSecretsList,
  ClientsList,
  ClientUsage,
} from './clients';
import {
  LogoutForm,
  OAuthAuthorizationCodeRequest,
  OAuthClientCredentialsRequest,
  OAuthRefreshTokenRequest,
  OAuthRevocationRequest,
  OAuthTokenRequest,
  SignInForm,
} from './oauth-requests';
import {
  ImsxStatusInfo,
  OneRosterAcademicSession,
  OneRosterAcademicSessionSet,
  OneRosterAssessmentLineItem,
  OneRosterAssessmentLineItemSet,
  OneRosterAssessmentResult,
  OneRosterAssessmentResultSet,
  OneRosterCategory,
  OneRosterCategorySet,
  OneRosterClass,
  OneRosterClassSet,
  OneRosterCourse,
  OneRosterCourseSet,
  OneRosterDemographics,
  OneRosterDemographicsSet,
  OneRosterEnrollment,
  OneRosterEnrollmentSet,
  OneRosterGUIDPairSet,
  OneRosterLineItem,
  OneRosterLineItemSet,
  OneRosterOrg,
  OneRosterOrgSet,
  OneRosterResult,
  OneRosterResultSet,
  OneRosterScoreScale,
  OneRosterScoreScaleSet,
  OneRosterSingleAcademicSession,
  OneRosterSingleAssessmentLineItem,
  OneRosterSingleAssessmentResult,
  OneRosterSingleCategory,
  OneRosterSingleClass,
  OneRosterSingleCourse,
  OneRosterSingleDemographics,
  OneRosterSingleEnrollment,
  OneRosterSingleLineItem,
  OneRosterSingleOrg,
  OneRosterSingleResult,
  OneRosterSingleScoreScale,
  OneRosterSingleUser,
  OneRosterUser,
  OneRosterUserSet,
} from './oneroster';
import {
  AcademicSession,
  AcademicSessionsChanges,
  AcademicSessionsDeletions,
  AcademicSessionsList,
  AcademicSessionsSelection,
  Address,
  AssessmentLineItem,
  AssessmentLineItemsChanges,
  AssessmentLineItemsDeletions,
  AssessmentLineItemsList,
  AssessmentLineItemsSelection,
  AssessmentResult,
  AssessmentResultsChanges,
  AssessmentResultsDeletions,
  AssessmentResultsList,
  AssessmentResultsSelection,
  Attendance,
  AttendanceChanges,
  AttendanceDeletions,
  AttendanceList,
  AttendanceRegister,
  AttendanceSelection,
  AttendanceSummary,
  BankAccount,
  CategoriesChanges,
  CategoriesDeletions,
  CategoriesList,
  CategoriesSelection,
  Category,
  Class,
  ClassesChanges,
  ClassesDeletions,
  ClassesList,
  ClassesSelection,
  Contact,
  Course,
  CoursesChanges,
  CoursesDeletions,
  CoursesList,
  CoursesSelection,
  Enrollment,
  EnrollmentsChanges,
  EnrollmentsDeletions,
  EnrollmentsList,
  EnrollmentsSelection,
  EntitiesChanges,
  EntitiesDeletions,
  EntitiesList,
  EntitiesSelection,
  Entity,
  EntityRole,
  IdentificationDocument,
  LineItem,
  LineItemDistribution,
  LineItemResults,
  LineItemsChanges,
  LineItemsDeletions,
  LineItemsList,
  LineItemsSelection,
  Result,
  ResultsChanges,
  ResultsDeletions,
  ResultsList,
  ResultsSelection,
  ScoreScale,
  ScoreScalesChanges,
  ScoreScalesDeletions,
  ScoreScalesList,
  ScoreScalesSelection,
  Staff,
  StaffsChanges,
  StaffsDeletions,
  StaffsList,
  StaffsSelection,
  Student,
  StudentGrades,
  StudentsChanges,
  StudentsDeletions,
  StudentsList,
  StudentsSelection,
  selection,
  Teacher,
  TeachersChanges,
  TeachersDeletions,
  TeachersList,
  TeachersSelection,
  Tutor,
  TutorsChanges,
  TutorsDeletions,
  TutorsList,
  TutorsSelection,
} from './records';
import {
  identificationDocumentInsertRequest,
  insertRequests,
  lineItemResultsRequest,
  registerRequest,
} from './requests';
import {
  AuthorizationServerMetadata,
  BadRequestHttpException,
  InternalServerErrorHttpException,
  Jwks,
  NotFoundHttpException,
  OAuthErrorResponse,
  OAuthMeResponse,
  OAuthTokenResponse,
  OpenApiDocument,
  ProblemDetails,
  PublicJsonWebKey,
  SystemStatus,
  UserInfoResponse,
} from './service';
import {
  WebhookCreated,
  WebhookDeliveries,
  WebhookReplay,
  WebhookReplayRequest,
  WebhookRequest,
  WebhookSecretRotated,
  WebhookSubscription,
  WebhooksList,
} from './webhooks';

interface Component {
  schema: z.core.$ZodType;
  description: string;
}

/** The components of a group's routes: the record, its pages, a selection of it, its deletions and its insert request. */
const groupComponents = <One extends string, Many extends string>(
  group: RecordGroup,
  names: { one: One; many: Many },
  words: { aRecord: string; about: string; insert: string },
  schemas: {
    record: z.ZodObject;
    list: z.core.$ZodType;
    changes: z.core.$ZodType;
    selection: z.core.$ZodType;
    deletions: z.core.$ZodType;
  },
) => {
  const { plural } = groups[group];
  return {
    [names.one]: { schema: schemas.record, description: words.about },
    [`${names.many}List`]: { schema: schemas.list, description: `A page of ${plural}.` },
    [`${names.many}Selection`]: {
      schema: schemas.selection,
      description: `A page of ${plural} with only the fields \`fields\` selects.`,
    },
    [`${names.many}Page`]: {
      schema: z.union([schemas.list, schemas.changes, schemas.selection]),
      description: `The ${plural} list, or its changes since \`updated_since\`; with \`fields\`, only those fields of each record.`,
    },
    [`${names.one}Selection`]: {
      schema: selection(schemas.record),
      description: `${words.aRecord}, or the fields of it that \`fields\` selects and its client's profile reads.`,
    },
    [`${names.many}Deletions`]: {
      schema: schemas.deletions,
      description: `A page of the ${plural} deleted since a time.`,
    },
    [`${names.one}InsertRequest`]: { schema: insertRequests[group], description: words.insert },
  } as {
    [K in
      | One
      | `${Many}List`
      | `${Many}Selection`
      | `${Many}Page`
      | `${One}Selection`
      | `${Many}Deletions`
      | `${One}InsertRequest`]: Component;
  };
};

/** The rostering groups' components (made outside the table, so their names are inferred). */
const rosteringComponents = {
  ...groupComponents(
    'academic_sessions',
    { one: 'AcademicSession', many: 'AcademicSessions' },
    {
      aRecord: 'An academic session',
      about: 'A school year, term, semester or grading period.',
      insert: 'An academic session to create or replace; `parent_id` names an existing session.',
    },
    {
      record: AcademicSession,
      list: AcademicSessionsList,
      changes: AcademicSessionsChanges,
      selection: AcademicSessionsSelection,
      deletions: AcademicSessionsDeletions,
    },
  ),
  ...groupComponents(
    'courses',
    { one: 'Course', many: 'Courses' },
    {
      aRecord: 'A course',
      about: 'A course of the curriculum.',
      insert: 'A course to create or replace; `org_id` names an existing organisation entity.',
    },
    {
      record: Course,
      list: CoursesList,
      changes: CoursesChanges,
      selection: CoursesSelection,
      deletions: CoursesDeletions,
    },
  ),
  ...groupComponents(
    'classes',
    { one: 'Class', many: 'Classes' },
    {
      aRecord: 'A class',
      about: 'A class: a course taught at a school in some terms.',
      insert:
        'A class to create or replace; its course, school (an organisation entity) and terms must exist.',
    },
    {
      record: Class,
      list: ClassesList,
      changes: ClassesChanges,
      selection: ClassesSelection,
      deletions: ClassesDeletions,
    },
  ),
  ...groupComponents(
    'enrollments',
    { one: 'Enrollment', many: 'Enrollments' },
    {
      aRecord: 'An enrollment',
      about: 'A person in a class, as student, teacher or other role.',
      insert:
        'An enrollment to create or replace; its class and person entity must exist. A replace keeps ' +
        '`class_id`, `entity_id` and `role`.',
    },
    {
      record: Enrollment,
      list: EnrollmentsList,
      changes: EnrollmentsChanges,
      selection: EnrollmentsSelection,
      deletions: EnrollmentsDeletions,
    },
  ),
};

/** The gradebook's groups' components (made outside the table, so their names are inferred). */
const gradebookComponents = {
  ...groupComponents(
    'categories',
    { one: 'Category', many: 'Categories' },
    {
      aRecord: 'A category',
      about: "A gradebook category of a school year, and its weight in a grade's weighted average.",
      insert: 'A category to create or replace; `school_year_id` names an existing academic session.',
    },
    {
      record: Category,
      list: CategoriesList,
      changes: CategoriesChanges,
      selection: CategoriesSelection,
      deletions: CategoriesDeletions,
    },
  ),
  ...groupComponents(
    'score_scales',
    { one: 'ScoreScale', many: 'ScoreScales' },
    {
      aRecord: 'A score scale',
      about:
        'A score scale: a numeric range (`minimum` to `maximum`, no `values`), or letter `values`, best ' +
        'first (no range).',
      insert:
        'A score scale to create or replace: `numeric` with its `minimum` below its `maximum`, or `letter` ' +
        'with its `values`, best first, none repeated.',
    },
    {
      record: ScoreScale,
      list: ScoreScalesList,
      changes: ScoreScalesChanges,
      selection: ScoreScalesSelection,
      deletions: ScoreScalesDeletions,
    },
  ),
  ...groupComponents(
    'line_items',
    { one: 'LineItem', many: 'LineItems' },
    {
      aRecord: 'A line item',
      about:
        'An assignment or assessment of a class, in a category, scored on a score scale or from ' +
        '`result_value_min` to `result_value_max`; its students and their guardians read it once `released`.',
      insert:
        'A line item to create or replace: its class, category, score scale and grading period must exist; ' +
        'it gives a `score_scale_id` or a `result_value_max`, and `assign_date` is not after `due_date`.',
    },
    {
      record: LineItem,
      list: LineItemsList,
      changes: LineItemsChanges,
      selection: LineItemsSelection,
      deletions: LineItemsDeletions,
    },
  ),
  ...groupComponents(
    'results',
    { one: 'Result', many: 'Results' },
    {
      aRecord: 'A result',
      about:
        "A student's result for a line item of their class: its `status`, a `score` or a letter value in " +
        '`text_score`, the date scored and a comment; the student and their guardians read it once its line ' +
        'item is released.',
      insert:
        'A result to create or replace: its class, line item and student must exist, and the line item must ' +
        'be of the class named.',
    },
    {
      record: Result,
      list: ResultsList,
      changes: ResultsChanges,
      selection: ResultsSelection,
      deletions: ResultsDeletions,
    },
  ),
  ...groupComponents(
    'attendance',
    { one: 'AttendanceRecord', many: 'AttendanceRecords' },
    {
      aRecord: 'An attendance record',
      about:
        "A student's attendance in a class on a `date`, or for the whole school day when `class_id` is null: " +
        'its `status`, the `minutes_late` of a tardy mark, and a note. The student and their guardians read it.',
      insert:
        'An attendance record to create or replace: its class (or null for the whole day) and student must ' +
        'exist, one record a class, student and date; `minutes_late` only with `status` tardy.',
    },
    {
      record: Attendance,
      list: AttendanceList,
      changes: AttendanceChanges,
      selection: AttendanceSelection,
      deletions: AttendanceDeletions,
    },
  ),
  ...groupComponents(
    'assessment_line_items',
    { one: 'AssessmentLineItem', many: 'AssessmentLineItems' },
    {
      aRecord: 'An assessment line item',
      about:
        'An assessment (a benchmark, a state test) of a class or of none (`class_id` null), part of another ' +
        'where `parent_id` names it, scored on a score scale, from `result_value_min` to `result_value_max`, ' +
        'or neither.',
      insert:
        'An assessment line item to create or replace: its class, parent and score scale must exist where ' +
        "named, the scale being the tenant's or the class's own; a replace keeps `class_id`.",
    },
    {
      record: AssessmentLineItem,
      list: AssessmentLineItemsList,
      changes: AssessmentLineItemsChanges,
      selection: AssessmentLineItemsSelection,
      deletions: AssessmentLineItemsDeletions,
    },
  ),
  ...groupComponents(
    'assessment_results',
    { one: 'AssessmentResult', many: 'AssessmentResults' },
    {
      aRecord: 'An assessment result',
      about:
        "A student's result in an assessment: its `status`, a `score` or a letter value in `text_score`, " +
        'the `score_percentile` it places the student at, the date scored and a comment.',
      insert:
        "An assessment result to create or replace: its assessment and student must exist, `class_id` is the assessment's " +
        '(null for one of no class), one result a student and assessment, and a replace keeps all three.',
    },
    {
      record: AssessmentResult,
      list: AssessmentResultsList,
      changes: AssessmentResultsChanges,
      selection: AssessmentResultsSelection,
      deletions: AssessmentResultsDeletions,
    },
  ),
};

const componentTable = {
  EntitiesAddresses: { schema: Address, description: 'A postal address.' },
  EntitiesContacts: { schema: Contact, description: 'A phone number, e-mail address or other contact.' },
  EntityIdentificationDocument: {
    schema: IdentificationDocument,
    description:
      'An identity document and its validity. In responses `identification_document_value` is masked ' +
      '(`****` and its last four characters; `****` alone for eight characters or fewer) unless the ' +
      "token carries the group's `<group>:read:sensitive` scope: a document number is enough for " +
      'identity fraud, so only readers that need it (the person, their guardian, administration) see it.',
  },
  EntityBankAccount: {
    schema: BankAccount,
    description:
      'A bank account. `back_account_number` is spelled so and holds an IBAN. Records always carry ' +
      'the array under `bankAccounts`; clients should accept `bank_accounts` too. In responses ' +
      '`back_account_number` is masked (`****` and its last four characters) unless the token carries ' +
      "the group's `<group>:read:sensitive` scope: an account number is enough to set up a direct debit.",
  },
  EntityRole: { schema: EntityRole, description: 'A student, teacher, tutor or staff record of an entity.' },
  Entity: { schema: Entity, description: 'The base record of a person or an organisation.' },
  EntitiesList: { schema: EntitiesList, description: 'A page of entities.' },
  Student: { schema: Student, description: 'A student. `ative` (spelled so) says whether it is active.' },
  StudentsList: { schema: StudentsList, description: 'A page of students.' },
  Teacher: { schema: Teacher, description: 'A teacher.' },
  TeachersList: { schema: TeachersList, description: 'A page of teachers.' },
  Tutor: { schema: Tutor, description: "A student's legal guardian, with the students in its care." },
  TutorsList: { schema: TutorsList, description: 'A page of tutors.' },
  Staff: { schema: Staff, description: 'A member of the non-teaching staff.' },
  StaffsList: { schema: StaffsList, description: 'A page of staff members.' },
  EntitiesChanges: { schema: EntitiesChanges, description: 'A page of the entities changed since a time.' },
  StudentsChanges: { schema: StudentsChanges, description: 'A page of the students changed since a time.' },
  TeachersChanges: { schema: TeachersChanges, description: 'A page of the teachers changed since a time.' },
  TutorsChanges: { schema: TutorsChanges, description: 'A page of the tutors changed since a time.' },
  StaffsChanges: { schema: StaffsChanges, description: 'A page of the staff members changed since a time.' },
  EntitiesSelection: {
    schema: EntitiesSelection,
    description:
      "A page of entities with only the fields `fields` selects or its client's profile reads, or filtered by `ative` alone (no totals).",
  },
  EntitiesPage: {
    schema: z.union([EntitiesList, EntitiesChanges, EntitiesSelection]),
    description:
      'The entities list, or its changes since `updated_since`; with `fields`, only those fields of each record.',
  },
  StudentsSelection: {
    schema: StudentsSelection,
    description:
      "A page of students with only the fields `fields` selects or its client's profile reads, or filtered by `ative` alone (no totals).",
  },
  StudentsPage: {
    schema: z.union([StudentsList, StudentsChanges, StudentsSelection]),
    description:
      'The students list, or its changes since `updated_since`; with `fields`, only those fields of each record.',
  },
  TeachersSelection: {
    schema: TeachersSelection,
    description:
      "A page of teachers with only the fields `fields` selects or its client's profile reads, or filtered by `ative` alone (no totals).",
  },
  TeachersPage: {
    schema: z.union([TeachersList, TeachersChanges, TeachersSelection]),
    description:
      'The teachers list, or its changes since `updated_since`; with `fields`, only those fields of each record.',
  },
  TutorsSelection: {
    schema: TutorsSelection,
    description:
      "A page of tutors with only the fields `fields` selects or its client's profile reads, or filtered by `ative` alone (no totals).",
  },
  TutorsPage: {
    schema: z.union([TutorsList, TutorsChanges, TutorsSelection]),
    description:
      'The tutors list, or its changes since `updated_since`; with `fields`, only those fields of each record.',
  },
  StaffsSelection: {
    schema: StaffsSelection,
    description:
      "A page of staffs with only the fields `fields` selects or its client's profile reads, or filtered by `ative` alone (no totals).",
  },
  StaffsPage: {
    schema: z.union([StaffsList, StaffsChanges, StaffsSelection]),
    description:
      'The staff list, or its changes since `updated_since`; with `fields`, only those fields of each record.',
  },
  EntitySelection: {
    schema: selection(Entity),
    description: "An entity, or the fields of it that `fields` selects and its client's profile reads.",
  },
  StudentSelection: {
    schema: selection(Student),
    description: "A student, or the fields of it that `fields` selects and its client's profile reads.",
  },
  TeacherSelection: {
    schema: selection(Teacher),
    description: "A teacher, or the fields of it that `fields` selects and its client's profile reads.",
  },
  TutorSelection: {
    schema: selection(Tutor),
    description: "A tutor, or the fields of it that `fields` selects and its client's profile reads.",
  },
  StaffSelection: {
    schema: selection(Staff),
    description: "A staff member, or the fields of it that `fields` selects and its client's profile reads.",
  },
  EntitiesDeletions: {
    schema: EntitiesDeletions,
    description: 'A page of the entities deleted since a time.',
  },
  StudentsDeletions: {
    schema: StudentsDeletions,
    description: 'A page of the students deleted since a time.',
  },
  TeachersDeletions: {
    schema: TeachersDeletions,
    description: 'A page of the teachers deleted since a time.',
  },
  TutorsDeletions: { schema: TutorsDeletions, description: 'A page of the tutors deleted since a time.' },
  StaffsDeletions: {
    schema: StaffsDeletions,
    description: 'A page of the staff members deleted since a time.',
  },
  EntityInsertRequest: {
    schema: insertRequests.entities,
    description: 'An entity to create or replace: its fields without its id, roles and timestamps.',
  },
  StudentInsertRequest: {
    schema: insertRequests.students,
    description: 'A student to create or replace; without `entity_id`, a person entity is created with it.',
  },
  TeacherInsertRequest: {
    schema: insertRequests.teachers,
    description: 'A teacher to create or replace; without `entity_id`, a person entity is created with it.',
  },
  TutorInsertRequest: {
    schema: insertRequests.tutors,
    description: 'A tutor to create or replace, with the existing students in its care.',
  },
  StaffInsertRequest: {
    schema: insertRequests.staffs,
    description:
      'A staff member to create or replace; without `entity_id`, a person entity is created with it.',
  },
  EntityIdentificationDocumentInsertRequest: {
    schema: identificationDocumentInsertRequest(),
    description: "An identification document to add to an entity's documents.",
  },
  StudentIdentificationDocumentInsertRequest: {
    schema: identificationDocumentInsertRequest(),
    description: "An identification document to add to a student's documents.",
  },
  TeacherIdentificationDocumentInsertRequest: {
    schema: identificationDocumentInsertRequest(),
    description: "An identification document to add to a teacher's documents.",
  },
  TutorIdentificationDocumentInsertRequest: {
    schema: identificationDocumentInsertRequest(),
    description: "An identification document to add to a tutor's documents.",
  },
  StaffIdentificationDocumentInsertRequest: {
    schema: identificationDocumentInsertRequest(),
    description: "An identification document to add to a staff member's documents.",
  },
  ...rosteringComponents,
  ...gradebookComponents,
  AttendanceRegister: {
    schema: AttendanceRegister,
    description: "A class's register for a date as written: every student's attendance record it marked.",
  },
  AttendanceRegisterRequest: {
    schema: registerRequest(),
    description:
      "A class's register for a date: each student's mark (`status`, `minutes_late` only when tardy, " +
      "`note`), every student at most once, up to 32; a mark replaces the student's record for the class " +
      'and date, or makes it. All are written or none.',
  },
  StudentGrades: {
    schema: StudentGrades,
    description:
      "A student's grades: per class and grading period (null: line items of none), the weighted average " +
      "of the results the reader may read, as percentages, with each category's average, weight and " +
      'number of results (docs/api.md has the rule).',
  },
  LineItemDistribution: {
    schema: LineItemDistribution,
    description:
      "A line item's results by status, by score and by letter (exempt results have neither), and the " +
      'scores as percentages of its range: how many count, their average and how many fall in each tenth ' +
      "(`from` included, `to` not, but 100 in the last), as a student's grade counts them (docs/api.md).",
  },
  AttendanceSummary: {
    schema: AttendanceSummary,
    description:
      "A student's attendance marks, and the rate they make (present and tardy among the marks not " +
      'excused, a percentage; null with none), per class, per term (the marks of the classes the term ' +
      "holds) and per month of whole-day marks, as far as the reader reads the student's attendance.",
  },
  LineItemResults: {
    schema: LineItemResults,
    description: "A line item's results as graded together: every student's result it named.",
  },
  LineItemResultsRequest: {
    schema: lineItemResultsRequest(),
    description:
      "A line item's results: each student's `status`, `score` or `text_score`, `score_date` and `comment`, " +
      "every student at most once, up to 32; each replaces the student's result for the line item, or makes " +
      'it. All are written or none.',
  },
  SystemStatus: {
    schema: SystemStatus,
    description: 'The tenant, the service version and health, and the count of each record group.',
  },
  OAuthClientCredentialsRequest: {
    schema: OAuthClientCredentialsRequest,
    description: "A client's own token (RFC 6749 section 4.4); confidential clients only.",
  },
  OAuthAuthorizationCodeRequest: {
    schema: OAuthAuthorizationCodeRequest,
    description:
      'Exchanges an authorization code and its PKCE verifier for tokens (RFC 6749 section 4.1.3, RFC 7636 ' +
      'section 4.5). Single use: a second exchange is refused and revokes what the first one issued.',
  },
  OAuthRefreshTokenRequest: {
    schema: OAuthRefreshTokenRequest,
    description:
      'Exchanges a refresh token for new tokens (RFC 6749 section 6). The refresh token is rotated: the ' +
      'answer carries a new one, and presenting a used one again revokes every token of that sign-in.',
  },
  OAuthTokenRequest: {
    schema: OAuthTokenRequest,
    description: 'A token request of one of the grants, by grant_type, as a form or as JSON.',
  },
  OAuthTokenResponse: {
    schema: OAuthTokenResponse,
    description: "An access token, and for a person's sign-in a refresh token (RFC 6749 section 5.1).",
  },
  OAuthRevocationRequest: {
    schema: OAuthRevocationRequest,
    description: 'Revokes a refresh token and every token of its sign-in (RFC 7009 section 2.1).',
  },
  SignInForm: {
    schema: SignInForm,
    description: "The sign-in page's form: the person's credentials, the request id and the CSRF token.",
  },
  OAuthErrorResponse: {
    schema: OAuthErrorResponse,
    description: 'A token or revocation endpoint error (RFC 6749 section 5.2, RFC 7009 section 2.2.1).',
  },
  OAuthMeResponse: { schema: OAuthMeResponse, description: 'Who the calling token belongs to.' },
  UserInfoResponse: {
    schema: UserInfoResponse,
    description:
      'OpenID Connect userinfo: the claims the token releases about its person (Core 1.0 section 5.3).',
  },
  LogoutForm: {
    schema: LogoutForm,
    description: 'An end-session request (OpenID Connect RP-Initiated Logout 1.0 section 2).',
  },
  PublicJsonWebKey: { schema: PublicJsonWebKey, description: 'A public token-signing key.' },
  Jwks: { schema: Jwks, description: 'The public keys that sign access tokens (RFC 7517).' },
  AuthorizationServerMetadata: {
    schema: AuthorizationServerMetadata,
    description: 'OAuth 2.0 authorization server metadata (RFC 8414).',
  },
  OpenApiDocument: { schema: OpenApiDocument, description: 'This API description, OpenAPI 3.1.' },
  ClientRegistrationRequest: {
    schema: ClientRegistrationRequest,
    description:
      'A client to register: its type (confidential, with a secret; or public, proving itself with PKCE), ' +
      'the scopes it may ask for, its grants, the addresses the code flow and logout may send people back ' +
      'to, and its rate limit in requests a minute (1,200 when left out).',
  },
  ClientReplaceRequest: {
    schema: ClientReplaceRequest,
    description:
      "A client's whole registration, as on registering it (left-out fields go back to their defaults; its " +
      'type cannot change), and its status: `revoked` disables it as DELETE does, `active` enables it again.',
  },
  Client: {
    schema: Client,
    description: 'An OAuth client as an administrator reads it: never a secret or its hash.',
  },
  ClientsList: { schema: ClientsList, description: "The tenant's OAuth clients." },
  ClientSecretRequest: {
    schema: ClientSecretRequest,
    description: 'A new secret for a client, valid until `expires_at` when given (`{}` for one without end).',
  },
  ClientSecretSummary: {
    schema: ClientSecretSummary,
    description: "One of a client's secrets as listed: its id and times, never the secret.",
  },
  ClientSecretCreated: {
    schema: ClientSecretCreated,
    description: 'A new secret: `secret` is shown in this answer only, and only its hash is kept.',
  },
  ClientSecretsList: { schema: ClientSecretsList, description: "A client's secrets, oldest first." },
  ClientUsage: {
    schema: ClientUsage,
    description:
      "A client's requests per UTC day over the last 30 days, by route group (the first segment of the " +
      "operation's handler: `students`, `oneroster-people`, `sso`...), and the requests refused by its rate limit.",
  },
  ClientCreated: {
    schema: ClientCreated,
    description: 'A registered client and, for a confidential one, its first secret, shown this once.',
  },
  WebhookRequest: {
    schema: WebhookRequest,
    description:
      'Where to send change events (an https URL of a public address) and which: `<group>.created`, ' +
      '`<group>.updated`, `<group>.deleted`, or `<group>.*` for all three.',
  },
  Webhook: {
    schema: WebhookSubscription,
    description:
      "A webhook subscription of the caller's client. `disabled` after an event failed every attempt " +
      '(about a day); enabling it again resumes deliveries, and a replay sends what was missed.',
  },
  WebhookCreated: {
    schema: WebhookCreated,
    description: 'A new subscription and its signing secret (`whsec_...`), shown in this answer only.',
  },
  WebhooksList: { schema: WebhooksList, description: "The caller's client's webhook subscriptions." },
  WebhookSecretRotated: {
    schema: WebhookSecretRotated,
    description:
      'The new signing secret, shown this once; the previous one keeps signing beside it until ' +
      '`previous_secret_expires_at` (24 hours).',
  },
  WebhookDeliveries: {
    schema: WebhookDeliveries,
    description: "A subscription's latest delivery attempts, newest first (at most 100).",
  },
  WebhookReplayRequest: {
    schema: WebhookReplayRequest,
    description: 'Send again every kept event since this time (events are kept 30 days).',
  },
  WebhookReplay: {
    schema: WebhookReplay,
    description:
      'A replay under way: the events from `since` to `until` are queued again, in order per record.',
  },
  ProblemDetails: { schema: ProblemDetails, description: 'An error, as an RFC 9457 problem.' },
  BadRequestHttpException: {
    schema: BadRequestHttpException,
    description: 'The request is not valid; `errors` lists each bad parameter and why.',
  },
  NotFoundHttpException: { schema: NotFoundHttpException, description: 'No record has this id.' },
  InternalServerErrorHttpException: {
    schema: InternalServerErrorHttpException,
    description: 'The request failed on the service side; `request_id` is the id its logs carry.',
  },
  OneRosterUser: { schema: OneRosterUser, description: 'A OneRoster 1.2 user: a person entity.' },
  OneRosterOrg: { schema: OneRosterOrg, description: 'A OneRoster 1.2 org: an organisation entity.' },
  OneRosterDemographics: {
    schema: OneRosterDemographics,
    description: "A OneRoster 1.2 user's demographics, with the user's sourcedId.",
  },
  OneRosterUserSet: { schema: OneRosterUserSet, description: 'A page of OneRoster users (UserSetDType).' },
  OneRosterSingleUser: { schema: OneRosterSingleUser, description: 'One OneRoster user (SingleUserDType).' },
  OneRosterOrgSet: { schema: OneRosterOrgSet, description: 'A page of OneRoster orgs (OrgSetDType).' },
  OneRosterSingleOrg: { schema: OneRosterSingleOrg, description: 'One OneRoster org (SingleOrgDType).' },
  OneRosterDemographicsSet: {
    schema: OneRosterDemographicsSet,
    description: 'A page of OneRoster demographics (DemographicsSetDType).',
  },
  OneRosterSingleDemographics: {
    schema: OneRosterSingleDemographics,
    description: "One user's OneRoster demographics (SingleDemographicsDType).",
  },
  OneRosterAcademicSession: {
    schema: OneRosterAcademicSession,
    description: 'A OneRoster 1.2 academic session: a school year, term, semester or grading period.',
  },
  OneRosterCourse: { schema: OneRosterCourse, description: 'A OneRoster 1.2 course.' },
  OneRosterClass: { schema: OneRosterClass, description: 'A OneRoster 1.2 class.' },
  OneRosterEnrollment: { schema: OneRosterEnrollment, description: 'A OneRoster 1.2 enrollment.' },
  OneRosterCategory: { schema: OneRosterCategory, description: 'A OneRoster 1.2 gradebook category.' },
  OneRosterCategorySet: {
    schema: OneRosterCategorySet,
    description: 'A page of OneRoster categories (CategoriesSetDType).',
  },
  OneRosterSingleCategory: {
    schema: OneRosterSingleCategory,
    description: 'One OneRoster category (SingleCategoryDType).',
  },
  OneRosterScoreScale: {
    schema: OneRosterScoreScale,
    description:
      "A OneRoster 1.2 gradebook score scale: a class's own scale, its range or its letters as scoreScaleValue.",
  },
  OneRosterScoreScaleSet: {
    schema: OneRosterScoreScaleSet,
    description: 'A page of OneRoster score scales (ScoreScaleSetDType).',
  },
  OneRosterSingleScoreScale: {
    schema: OneRosterSingleScoreScale,
    description: 'One OneRoster score scale (SingleScoreScaleDType).',
  },
  OneRosterLineItem: {
    schema: OneRosterLineItem,
    description:
      "A OneRoster 1.2 gradebook line item: an assignment or assessment of a class, at its class's school.",
  },
  OneRosterLineItemSet: {
    schema: OneRosterLineItemSet,
    description: 'A page of OneRoster line items (LineItemSetDType).',
  },
  OneRosterSingleLineItem: {
    schema: OneRosterSingleLineItem,
    description: 'One OneRoster line item (SingleLineItemDType).',
  },
  OneRosterResult: {
    schema: OneRosterResult,
    description:
      "A OneRoster 1.2 gradebook result: a student's score for a line item of their class, the student named by their user.",
  },
  OneRosterResultSet: {
    schema: OneRosterResultSet,
    description: 'A page of OneRoster results (ResultSetDType).',
  },
  OneRosterSingleResult: {
    schema: OneRosterSingleResult,
    description: 'One OneRoster result (SingleResultDType).',
  },
  OneRosterAssessmentLineItem: {
    schema: OneRosterAssessmentLineItem,
    description:
      'A OneRoster 1.2 assessment line item: an assessment of a class or of none, perhaps part of another.',
  },
  OneRosterAssessmentLineItemSet: {
    schema: OneRosterAssessmentLineItemSet,
    description: 'A page of OneRoster assessment line items (AssessmentLineItemSetDType).',
  },
  OneRosterSingleAssessmentLineItem: {
    schema: OneRosterSingleAssessmentLineItem,
    description: 'One OneRoster assessment line item (SingleAssessmentLineItemDType).',
  },
  OneRosterAssessmentResult: {
    schema: OneRosterAssessmentResult,
    description:
      "A OneRoster 1.2 assessment result: a student's score in an assessment, the student named by their user.",
  },
  OneRosterAssessmentResultSet: {
    schema: OneRosterAssessmentResultSet,
    description: 'A page of OneRoster assessment results (AssessmentResultSetDType).',
  },
  OneRosterSingleAssessmentResult: {
    schema: OneRosterSingleAssessmentResult,
    description: 'One OneRoster assessment result (SingleAssessmentResultDType).',
  },
  OneRosterGUIDPairSet: {
    schema: OneRosterGUIDPairSet,
    description:
      'The sourcedId each posted object was given, by the one its poster supplied (GUIDPairSetDType).',
  },
  OneRosterAcademicSessionSet: {
    schema: OneRosterAcademicSessionSet,
    description: 'A page of OneRoster academic sessions (AcademicSessionSetDType).',
  },
  OneRosterSingleAcademicSession: {
    schema: OneRosterSingleAcademicSession,
    description: 'One OneRoster academic session (SingleAcademicSessionDType).',
  },
  OneRosterCourseSet: {
    schema: OneRosterCourseSet,
    description: 'A page of OneRoster courses (CourseSetDType).',
  },
  OneRosterSingleCourse: {
    schema: OneRosterSingleCourse,
    description: 'One OneRoster course (SingleCourseDType).',
  },
  OneRosterClassSet: {
    schema: OneRosterClassSet,
    description: 'A page of OneRoster classes (ClassSetDType).',
  },
  OneRosterSingleClass: {
    schema: OneRosterSingleClass,
    description: 'One OneRoster class (SingleClassDType).',
  },
  OneRosterEnrollmentSet: {
    schema: OneRosterEnrollmentSet,
    description: 'A page of OneRoster enrollments (EnrollmentSetDType).',
  },
  OneRosterSingleEnrollment: {
    schema: OneRosterSingleEnrollment,
    description: 'One OneRoster enrollment (SingleEnrollmentDType).',
  },
  ImsxStatusInfo: {
    schema: ImsxStatusInfo,
    description:
      'A OneRoster error (imsx_StatusInfoDType): codeMajor failure, and the codeMinor that says why.',
  },
} as const satisfies Record<string, Component>;

export type ComponentName = keyof typeof componentTable;

export const componentNames = Object.keys(componentTable) as ComponentName[];

/** JSON Schema formats that OpenAPI tools and validators know; zod's others are kept as patterns only. */
const knownFormats = new Set(['uuid', 'email', 'date', 'date-time', 'uri']);

let jsonSchemas: Record<ComponentName, Record<string, unknown>> | undefined;

/** Every component as a JSON Schema 2020-12 object, referring to the others by `#/components/schemas/`. */
export function componentJsonSchemas(): Record<ComponentName, Record<string, unknown>> {
  if (jsonSchemas) return jsonSchemas;
  const registry = z.registry<{ id: string; description: string }>();
  for (const name of componentNames) {
    registry.add(componentTable[name].schema, { id: name, description: componentTable[name].description });
  }
  // Bodies are described as clients send them: fields with defaults are optional. Responses have no
  // defaults or transforms, so they read the same either way.
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      if (typeof jsonSchema.format === 'string' && !knownFormats.has(jsonSchema.format)) {
        delete jsonSchema.format;
      }
    },
  });
  jsonSchemas = Object.fromEntries(
    componentNames.map((name) => {
      const { $schema: _dialect, $id: _id, ...schema } = schemas[name] ?? {};
      return [name, schema];
    }),
  ) as Record<ComponentName, Record<string, unknown>>;
  return jsonSchemas;
}
