// What the API description says of each operation beyond its run-time facts (shared/routes.ts): a
// summary, the bodies it answers with by status, and the body it takes. Only the description and the
// tools that write it read this; no handler does.
import { type DocumentGroup, groups, type RecordGroup, recordGroups } from '../domain/groups';
import { withArticle } from '../domain/words';
import type { OneRosterRouteId } from '../oneroster/routes';
import type { Route } from '../route';
import { fallbackRoute, type RecordRouteId, type RouteId, routes } from '../routes';
import type { ComponentName } from '../schemas/components';

/**
 * What a successful response carries: a JSON body of a registered component, no body at all
 * (`NoContent` for a 204, `NotModified` for a 304, `Redirect` for a 302 or 303 with a Location), or text
 * of the given media types (the docs page).
 */
export type ResponseBody =
  | ComponentName
  | 'NoContent'
  | 'NotModified'
  | 'Redirect'
  | { mediaTypes: readonly string[] };

/** A request body: a JSON body of a registered component, or that component in the given media types. */
export type RequestBody = ComponentName | { schema: ComponentName; mediaTypes: readonly string[] };

export interface RouteDocs {
  summary: string;
  /** Success responses by status. Error responses follow from auth, parameters and body (responses.ts). */
  responses: { readonly [status: number]: ResponseBody };
  requestBody?: RequestBody;
}

export type DocumentedRoute = Route & RouteDocs;

/** The components a group's operations take and give: a document only where records hold documents. */
type GroupComponents<G extends RecordGroup> = {
  page: ComponentName;
  /** The record as a read gives it: whole, or the fields `fields` selects. */
  read: ComponentName;
  deletions: ComponentName;
  insert: ComponentName;
} & (G extends DocumentGroup ? { document: ComponentName } : { document?: undefined });

/** Every group's components: each group has its routes, and each route its documentation. */
const groupComponents: { [G in RecordGroup]: GroupComponents<G> } = {
  entities: {
    page: 'EntitiesPage',
    read: 'EntitySelection',
    deletions: 'EntitiesDeletions',
    insert: 'EntityInsertRequest',
    document: 'EntityIdentificationDocumentInsertRequest',
  },
  students: {
    page: 'StudentsPage',
    read: 'StudentSelection',
    deletions: 'StudentsDeletions',
    insert: 'StudentInsertRequest',
    document: 'StudentIdentificationDocumentInsertRequest',
  },
  tutors: {
    page: 'TutorsPage',
    read: 'TutorSelection',
    deletions: 'TutorsDeletions',
    insert: 'TutorInsertRequest',
    document: 'TutorIdentificationDocumentInsertRequest',
  },
  staffs: {
    page: 'StaffsPage',
    read: 'StaffSelection',
    deletions: 'StaffsDeletions',
    insert: 'StaffInsertRequest',
    document: 'StaffIdentificationDocumentInsertRequest',
  },
  teachers: {
    page: 'TeachersPage',
    read: 'TeacherSelection',
    deletions: 'TeachersDeletions',
    insert: 'TeacherInsertRequest',
    document: 'TeacherIdentificationDocumentInsertRequest',
  },
  academic_sessions: {
    page: 'AcademicSessionsPage',
    read: 'AcademicSessionSelection',
    deletions: 'AcademicSessionsDeletions',
    insert: 'AcademicSessionInsertRequest',
  },
  courses: {
    page: 'CoursesPage',
    read: 'CourseSelection',
    deletions: 'CoursesDeletions',
    insert: 'CourseInsertRequest',
  },
  classes: {
    page: 'ClassesPage',
    read: 'ClassSelection',
    deletions: 'ClassesDeletions',
    insert: 'ClassInsertRequest',
  },
  enrollments: {
    page: 'EnrollmentsPage',
    read: 'EnrollmentSelection',
    deletions: 'EnrollmentsDeletions',
    insert: 'EnrollmentInsertRequest',
  },
  categories: {
    page: 'CategoriesPage',
    read: 'CategorySelection',
    deletions: 'CategoriesDeletions',
    insert: 'CategoryInsertRequest',
  },
  score_scales: {
    page: 'ScoreScalesPage',
    read: 'ScoreScaleSelection',
    deletions: 'ScoreScalesDeletions',
    insert: 'ScoreScaleInsertRequest',
  },
  line_items: {
    page: 'LineItemsPage',
    read: 'LineItemSelection',
    deletions: 'LineItemsDeletions',
    insert: 'LineItemInsertRequest',
  },
  results: {
    page: 'ResultsPage',
    read: 'ResultSelection',
    deletions: 'ResultsDeletions',
    insert: 'ResultInsertRequest',
  },
  attendance: {
    page: 'AttendanceRecordsPage',
    read: 'AttendanceRecordSelection',
    deletions: 'AttendanceRecordsDeletions',
    insert: 'AttendanceRecordInsertRequest',
  },
  assessment_line_items: {
    page: 'AssessmentLineItemsPage',
    read: 'AssessmentLineItemSelection',
    deletions: 'AssessmentLineItemsDeletions',
    insert: 'AssessmentLineItemInsertRequest',
  },
  assessment_results: {
    page: 'AssessmentResultsPage',
    read: 'AssessmentResultSelection',
    deletions: 'AssessmentResultsDeletions',
    insert: 'AssessmentResultInsertRequest',
  },
};

function groupDocs<G extends RecordGroup>(group: G): Record<string, RouteDocs> {
  const { noun } = groups[group];
  const components: GroupComponents<RecordGroup> = groupComponents[group];
  return {
    [`list-${group}`]: {
      summary: `List ${group} in id order, or those changed since a time`,
      responses: { 200: components.page },
    },
    [`get-${group}`]: {
      summary: `Get one ${noun} by id`,
      responses: { 200: components.read, 304: 'NotModified' },
    },
    [`list-deleted-${group}`]: {
      summary: `List ${group} deleted since a time`,
      responses: { 200: components.deletions },
    },
    // A write answers the record as its client reads it: whole, but for what the client's profile keeps from it.
    [`create-${group}`]: {
      summary: `Create ${withArticle(noun)}`,
      responses: { 201: components.read },
      requestBody: components.insert,
    },
    [`replace-${group}`]: {
      summary: `Replace ${withArticle(noun)}`,
      responses: { 200: components.read },
      requestBody: components.insert,
    },
    [`delete-${group}`]: { summary: `Delete ${withArticle(noun)}`, responses: { 204: 'NoContent' } },
    ...(components.document === undefined
      ? {}
      : {
          [`add-document-${group}`]: {
            summary: `Add an identification document to ${withArticle(noun)}`,
            responses: { 201: components.read },
            requestBody: components.document,
          },
        }),
  };
}

/** The OneRoster 1.2 Rostering and Gradebook bindings' reads, and the Gradebook's writes (shared/oneroster/routes.ts). */
const oneRosterDocs: Record<OneRosterRouteId, RouteDocs> = {
  'list-oneroster-users': { summary: 'OneRoster: list users', responses: { 200: 'OneRosterUserSet' } },
  'get-oneroster-user': { summary: 'OneRoster: get a user', responses: { 200: 'OneRosterSingleUser' } },
  'list-oneroster-students': { summary: 'OneRoster: list students', responses: { 200: 'OneRosterUserSet' } },
  'get-oneroster-student': { summary: 'OneRoster: get a student', responses: { 200: 'OneRosterSingleUser' } },
  'list-oneroster-teachers': { summary: 'OneRoster: list teachers', responses: { 200: 'OneRosterUserSet' } },
  'get-oneroster-teacher': { summary: 'OneRoster: get a teacher', responses: { 200: 'OneRosterSingleUser' } },
  'list-oneroster-orgs': { summary: 'OneRoster: list orgs', responses: { 200: 'OneRosterOrgSet' } },
  'get-oneroster-org': { summary: 'OneRoster: get an org', responses: { 200: 'OneRosterSingleOrg' } },
  'list-oneroster-schools': { summary: 'OneRoster: list schools', responses: { 200: 'OneRosterOrgSet' } },
  'get-oneroster-school': { summary: 'OneRoster: get a school', responses: { 200: 'OneRosterSingleOrg' } },
  'list-oneroster-academic-sessions': {
    summary: 'OneRoster: list academic sessions',
    responses: { 200: 'OneRosterAcademicSessionSet' },
  },
  'get-oneroster-academic-session': {
    summary: 'OneRoster: get an academic session',
    responses: { 200: 'OneRosterSingleAcademicSession' },
  },
  'list-oneroster-terms': {
    summary: 'OneRoster: list terms',
    responses: { 200: 'OneRosterAcademicSessionSet' },
  },
  'get-oneroster-term': {
    summary: 'OneRoster: get a term',
    responses: { 200: 'OneRosterSingleAcademicSession' },
  },
  'list-oneroster-grading-periods': {
    summary: 'OneRoster: list grading periods',
    responses: { 200: 'OneRosterAcademicSessionSet' },
  },
  'get-oneroster-grading-period': {
    summary: 'OneRoster: get a grading period',
    responses: { 200: 'OneRosterSingleAcademicSession' },
  },
  'list-oneroster-courses': { summary: 'OneRoster: list courses', responses: { 200: 'OneRosterCourseSet' } },
  'get-oneroster-course': { summary: 'OneRoster: get a course', responses: { 200: 'OneRosterSingleCourse' } },
  'list-oneroster-categories': {
    summary: 'OneRoster: list gradebook categories',
    responses: { 200: 'OneRosterCategorySet' },
  },
  'get-oneroster-category': {
    summary: 'OneRoster: get a gradebook category',
    responses: { 200: 'OneRosterSingleCategory' },
  },
  'list-oneroster-score-scales': {
    summary: "OneRoster: list classes' score scales",
    responses: { 200: 'OneRosterScoreScaleSet' },
  },
  'get-oneroster-score-scale': {
    summary: "OneRoster: get a class's score scale",
    responses: { 200: 'OneRosterSingleScoreScale' },
  },
  'list-oneroster-score-scales-of-class': {
    summary: "OneRoster: list a class's score scales",
    responses: { 200: 'OneRosterScoreScaleSet' },
  },
  'list-oneroster-score-scales-of-school': {
    summary: "OneRoster: list the score scales of a school's classes",
    responses: { 200: 'OneRosterScoreScaleSet' },
  },
  'put-oneroster-score-scale': {
    summary: "OneRoster: create or replace a class's score scale",
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleScoreScale',
  },
  'delete-oneroster-score-scale': {
    summary: "OneRoster: delete a class's score scale",
    responses: { 204: 'NoContent' },
  },
  'list-oneroster-line-items': {
    summary: 'OneRoster: list gradebook line items',
    responses: { 200: 'OneRosterLineItemSet' },
  },
  'get-oneroster-line-item': {
    summary: 'OneRoster: get a gradebook line item',
    responses: { 200: 'OneRosterSingleLineItem' },
  },
  'list-oneroster-categories-of-class': {
    summary: "OneRoster: list the gradebook categories of a class's line items",
    responses: { 200: 'OneRosterCategorySet' },
  },
  'list-oneroster-line-items-of-class': {
    summary: "OneRoster: list a class's gradebook line items",
    responses: { 200: 'OneRosterLineItemSet' },
  },
  'list-oneroster-results': {
    summary: "OneRoster: list students' results",
    responses: { 200: 'OneRosterResultSet' },
  },
  'get-oneroster-result': {
    summary: "OneRoster: get a student's result",
    responses: { 200: 'OneRosterSingleResult' },
  },
  'list-oneroster-results-of-class': {
    summary: "OneRoster: list a class's results",
    responses: { 200: 'OneRosterResultSet' },
  },
  'list-oneroster-results-of-student-in-class': {
    summary: "OneRoster: list a student's results in a class",
    responses: { 200: 'OneRosterResultSet' },
  },
  'list-oneroster-results-of-line-item-in-class': {
    summary: 'OneRoster: list the results for a line item of a class',
    responses: { 200: 'OneRosterResultSet' },
  },
  'put-oneroster-category': {
    summary: 'OneRoster: create or replace a gradebook category',
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleCategory',
  },
  'delete-oneroster-category': {
    summary: 'OneRoster: delete a gradebook category',
    responses: { 204: 'NoContent' },
  },
  'put-oneroster-line-item': {
    summary: 'OneRoster: create or replace a gradebook line item',
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleLineItem',
  },
  'delete-oneroster-line-item': {
    summary: 'OneRoster: delete a gradebook line item',
    responses: { 204: 'NoContent' },
  },
  'put-oneroster-result': {
    summary: "OneRoster: create or replace a student's result",
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleResult',
  },
  'post-oneroster-results-of-line-item': {
    summary: "OneRoster: post a line item's results, each student's made or replaced",
    responses: { 201: 'OneRosterGUIDPairSet' },
    requestBody: 'OneRosterResultSet',
  },
  'delete-oneroster-result': {
    summary: "OneRoster: delete a student's result",
    responses: { 204: 'NoContent' },
  },
  'list-oneroster-assessment-line-items': {
    summary: 'OneRoster: list assessment line items',
    responses: { 200: 'OneRosterAssessmentLineItemSet' },
  },
  'get-oneroster-assessment-line-item': {
    summary: 'OneRoster: get an assessment line item',
    responses: { 200: 'OneRosterSingleAssessmentLineItem' },
  },
  'put-oneroster-assessment-line-item': {
    summary: 'OneRoster: create or replace an assessment line item',
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleAssessmentLineItem',
  },
  'delete-oneroster-assessment-line-item': {
    summary: 'OneRoster: delete an assessment line item',
    responses: { 204: 'NoContent' },
  },
  'list-oneroster-assessment-results': {
    summary: "OneRoster: list students' assessment results",
    responses: { 200: 'OneRosterAssessmentResultSet' },
  },
  'get-oneroster-assessment-result': {
    summary: "OneRoster: get a student's assessment result",
    responses: { 200: 'OneRosterSingleAssessmentResult' },
  },
  'put-oneroster-assessment-result': {
    summary: "OneRoster: create or replace a student's assessment result",
    responses: { 201: 'NoContent' },
    requestBody: 'OneRosterSingleAssessmentResult',
  },
  'delete-oneroster-assessment-result': {
    summary: "OneRoster: delete a student's assessment result",
    responses: { 204: 'NoContent' },
  },
  'list-oneroster-classes': { summary: 'OneRoster: list classes', responses: { 200: 'OneRosterClassSet' } },
  'get-oneroster-class': { summary: 'OneRoster: get a class', responses: { 200: 'OneRosterSingleClass' } },
  'list-oneroster-enrollments': {
    summary: 'OneRoster: list enrollments',
    responses: { 200: 'OneRosterEnrollmentSet' },
  },
  'get-oneroster-enrollment': {
    summary: 'OneRoster: get an enrollment',
    responses: { 200: 'OneRosterSingleEnrollment' },
  },
  'list-oneroster-classes-of-school': {
    summary: "OneRoster: list a school's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-courses-of-school': {
    summary: "OneRoster: list a school's courses",
    responses: { 200: 'OneRosterCourseSet' },
  },
  'list-oneroster-terms-of-school': {
    summary: "OneRoster: list the terms of a school's classes",
    responses: { 200: 'OneRosterAcademicSessionSet' },
  },
  'list-oneroster-enrollments-of-school': {
    summary: "OneRoster: list the enrollments in a school's classes",
    responses: { 200: 'OneRosterEnrollmentSet' },
  },
  'list-oneroster-students-of-school': {
    summary: "OneRoster: list the students enrolled in a school's classes",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-teachers-of-school': {
    summary: "OneRoster: list the teachers enrolled in a school's classes",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-students-of-class': {
    summary: "OneRoster: list a class's students",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-teachers-of-class': {
    summary: "OneRoster: list a class's teachers",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-enrollments-of-class-in-school': {
    summary: "OneRoster: list the enrollments of a school's class",
    responses: { 200: 'OneRosterEnrollmentSet' },
  },
  'list-oneroster-students-of-class-in-school': {
    summary: "OneRoster: list the students of a school's class",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-teachers-of-class-in-school': {
    summary: "OneRoster: list the teachers of a school's class",
    responses: { 200: 'OneRosterUserSet' },
  },
  'list-oneroster-classes-of-course': {
    summary: "OneRoster: list a course's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-classes-of-term': {
    summary: "OneRoster: list a term's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-grading-periods-of-term': {
    summary: "OneRoster: list a term's grading periods",
    responses: { 200: 'OneRosterAcademicSessionSet' },
  },
  'list-oneroster-classes-of-user': {
    summary: "OneRoster: list a user's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-classes-of-student': {
    summary: "OneRoster: list a student's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-classes-of-teacher': {
    summary: "OneRoster: list a teacher's classes",
    responses: { 200: 'OneRosterClassSet' },
  },
  'list-oneroster-demographics': {
    summary: 'OneRoster: list demographics',
    responses: { 200: 'OneRosterDemographicsSet' },
  },
  'get-oneroster-demographics': {
    summary: "OneRoster: get a user's demographics",
    responses: { 200: 'OneRosterSingleDemographics' },
  },
};

/** An OAuth endpoint's request (RFC 6749 section 3.2): a form, or JSON. */
const oauthRequest = (schema: ComponentName): RequestBody => ({
  schema,
  mediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
});

/** The record groups' docs, written by groupDocs for every group as the route table writes their routes. */
const recordDocs = Object.assign({}, ...recordGroups.map(groupDocs)) as Record<RecordRouteId, RouteDocs>;

/** Every route's docs: a route without its row here, or a row of no route, does not compile. */
const docs: { [Id in RouteId]: RouteDocs } = {
  ...recordDocs,
  'put-class-register': {
    summary: "Take a class's register for a date: every student's mark, written together or not at all",
    responses: { 200: 'AttendanceRegister' },
    requestBody: 'AttendanceRegisterRequest',
  },
  'get-student-grades': {
    summary:
      "A student's grades: per class and grading period, the weighted average of their results by category",
    responses: { 200: 'StudentGrades' },
  },
  'get-line-item-distribution': {
    summary: "A line item's score distribution: its results by status, score and letter, and in tenths",
    responses: { 200: 'LineItemDistribution' },
  },
  'get-student-attendance-summary': {
    summary: "A student's attendance rate per class, per term and per month of whole days",
    responses: { 200: 'AttendanceSummary' },
  },
  'put-line-item-results': {
    summary: "Grade a line item's students: every student's result, written together or not at all",
    responses: { 200: 'LineItemResults' },
    requestBody: 'LineItemResultsRequest',
  },
  'get-system': {
    summary: 'Tenant information, service version and record counts',
    responses: { 200: 'SystemStatus' },
  },
  'list-clients': { summary: "The tenant's OAuth clients", responses: { 200: 'ClientsList' } },
  'create-client': {
    summary: 'Register an OAuth client; a confidential one gets its first secret in the answer, once',
    responses: { 201: 'ClientCreated' },
    requestBody: 'ClientRegistrationRequest',
  },
  'get-client': { summary: 'An OAuth client', responses: { 200: 'Client' } },
  'replace-client': {
    summary: "Replace an OAuth client's registration, or enable a disabled one",
    responses: { 200: 'Client' },
    requestBody: 'ClientReplaceRequest',
  },
  'delete-client': {
    summary: 'Disable an OAuth client: no new tokens, and those it holds are refused within a minute',
    responses: { 204: 'NoContent' },
  },
  'list-client-secrets': {
    summary: "A client's secrets: ids, times and whether each is live; never a secret",
    responses: { 200: 'ClientSecretsList' },
  },
  'create-client-secret': {
    summary: 'Add a secret to a client (at most two live at once, to rotate without downtime), shown once',
    responses: { 201: 'ClientSecretCreated' },
    requestBody: 'ClientSecretRequest',
  },
  'delete-client-secret': {
    summary: "Revoke one of a client's secrets: the token endpoint refuses it from the next request",
    responses: { 204: 'NoContent' },
  },
  'get-client-usage': {
    summary:
      "A client's requests per day and per route group over the last 30 days, and its refusals by rate limit",
    responses: { 200: 'ClientUsage' },
  },
  'list-webhooks': {
    summary: "The caller's client's webhook subscriptions",
    responses: { 200: 'WebhooksList' },
  },
  'create-webhook': {
    summary:
      'Subscribe to change events: signed deliveries (Standard Webhooks) to an https URL; the secret is shown once',
    responses: { 201: 'WebhookCreated' },
    requestBody: 'WebhookRequest',
  },
  'get-webhook': { summary: 'A webhook subscription', responses: { 200: 'Webhook' } },
  'delete-webhook': {
    summary: 'Delete a webhook subscription: no further deliveries',
    responses: { 204: 'NoContent' },
  },
  'enable-webhook': {
    summary: 'Enable a subscription its failed deliveries disabled; replay what it missed',
    responses: { 200: 'Webhook' },
  },
  'rotate-webhook-secret': {
    summary: "Rotate a subscription's signing secret: old and new both sign for 24 hours",
    responses: { 200: 'WebhookSecretRotated' },
  },
  'list-webhook-deliveries': {
    summary: "A subscription's latest delivery attempts: event, outcome, status code, latency, next retry",
    responses: { 200: 'WebhookDeliveries' },
  },
  'replay-webhook': {
    summary: 'Send again every kept event since a time (events are kept 30 days), in order per record',
    responses: { 202: 'WebhookReplay' },
    requestBody: 'WebhookReplayRequest',
  },
  'create-token': {
    summary: 'Issue OAuth 2.0 tokens (client_credentials, authorization_code and refresh_token grants)',
    responses: { 200: 'OAuthTokenResponse' },
    requestBody: oauthRequest('OAuthTokenRequest'),
  },
  'revoke-token': {
    summary: 'Revoke a refresh token and every token of its sign-in (RFC 7009)',
    responses: { 200: 'NoContent' },
    requestBody: oauthRequest('OAuthRevocationRequest'),
  },
  'get-authorize': {
    summary:
      'Start signing a person in (authorization code with PKCE, OpenID Connect): the sign-in page, or a code at once from a live sign-on session',
    responses: { 200: { mediaTypes: ['text/html'] }, 302: 'Redirect' },
  },
  'post-authorize': {
    summary:
      "The sign-in page's form: on success, back to the client with a code, or first the second factor's page (TOTP)",
    responses: { 200: { mediaTypes: ['text/html'] }, 303: 'Redirect' },
    requestBody: { schema: 'SignInForm', mediaTypes: ['application/x-www-form-urlencoded'] },
  },
  'get-me': { summary: 'Who the calling token belongs to', responses: { 200: 'OAuthMeResponse' } },
  'get-userinfo': {
    summary: 'OpenID Connect userinfo: claims about the signed-in person',
    responses: { 200: 'UserInfoResponse' },
  },
  'post-userinfo': {
    summary: 'OpenID Connect userinfo, by POST',
    responses: { 200: 'UserInfoResponse' },
  },
  'get-logout': {
    summary: 'End the sign-on session (OpenID Connect RP-Initiated Logout)',
    responses: { 200: { mediaTypes: ['text/html'] }, 303: 'Redirect' },
  },
  'post-logout': {
    summary: 'End the sign-on session, by a form',
    responses: { 200: { mediaTypes: ['text/html'] }, 303: 'Redirect' },
    requestBody: { schema: 'LogoutForm', mediaTypes: ['application/x-www-form-urlencoded'] },
  },
  'get-jwks': { summary: 'Public signing keys (JWKS)', responses: { 200: 'Jwks' } },
  'get-openid-configuration': {
    summary: 'Authorization server metadata',
    responses: { 200: 'AuthorizationServerMetadata' },
  },
  'get-oauth-authorization-server': {
    summary: 'Authorization server metadata at the address RFC 8414 derives from the issuer',
    responses: { 200: 'AuthorizationServerMetadata' },
  },
  'get-openapi': { summary: 'This API description (OpenAPI 3.1)', responses: { 200: 'OpenApiDocument' } },
  'get-docs': { summary: 'The API docs page', responses: { 200: { mediaTypes: ['text/html'] } } },
  'get-docs-asset': {
    summary: 'A script, style sheet or licence file of the docs page',
    responses: { 200: { mediaTypes: ['text/javascript', 'text/css', 'text/plain'] } },
  },
  ...oneRosterDocs,
  fallback: { summary: 'Unknown paths and methods', responses: {} },
};

function documented(route: Route<RouteId>): DocumentedRoute {
  const routeDocs = docs[route.id];
  if (!routeDocs) throw new Error(`Route ${route.id} has no documentation in shared/openapi/route-docs.ts`);
  return { ...route, ...routeDocs };
}

/**
 * Every operation with its documentation; a record route that groupDocs missed fails here, when the
 * description is built.
 */
export const documentedRoutes: readonly DocumentedRoute[] = routes.map(documented);

export const documentedFallback: DocumentedRoute = documented(fallbackRoute);
