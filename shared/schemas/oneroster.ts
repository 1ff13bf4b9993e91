// The OneRoster 1.2 payloads this service answers with, for the API description: the fields it fills of
// the Rostering binding's UserDType, OrgDType, DemographicsDType and the rest, and the Gradebook binding's
// CategoryDType, LineItemDType and ResultDType, each optional since `fields` selects among them. The
// binding's own schemas (test/fixtures/oneroster/) are what the tests hold full responses to.
import * as z from 'zod';
import { resultStatuses } from '../domain/gradebook';

const timestamp = z.iso.datetime();

const guidRef = <T extends string>(type: T) =>
  z.strictObject({ href: z.url(), sourcedId: z.string(), type: z.literal(type) });

const base = {
  sourcedId: z.string(),
  status: z.enum(['active', 'tobedeleted']),
  dateLastModified: timestamp,
};

export const OneRosterUser = z
  .strictObject({
    ...base,
    userIds: z.array(z.strictObject({ type: z.string(), identifier: z.string() })),
    enabledUser: z.enum(['true', 'false']),
    givenName: z.string(),
    familyName: z.string(),
    roles: z.array(
      z.strictObject({
        roleType: z.enum(['primary', 'secondary']),
        role: z.string(),
        org: guidRef('org'),
      }),
    ),
    agents: z.array(guidRef('user')),
    primaryOrg: guidRef('org'),
    email: z.string(),
  })
  .partial();

export const OneRosterOrg = z
  .strictObject({
    ...base,
    name: z.string(),
    type: z.string(),
    identifier: z.string(),
    parent: guidRef('org'),
    children: z.array(guidRef('org')),
  })
  .partial();

export const OneRosterDemographics = z
  .strictObject({
    ...base,
    birthDate: z.iso.date(),
    sex: z.enum(['male', 'female', 'unspecified', 'other']),
    cityOfBirth: z.string(),
  })
  .partial();

const date = z.iso.date();

export const OneRosterAcademicSession = z
  .strictObject({
    ...base,
    title: z.string(),
    startDate: date,
    endDate: date,
    type: z.string(),
    parent: guidRef('academicSession'),
    children: z.array(guidRef('academicSession')),
    schoolYear: z.string(),
  })
  .partial();

export const OneRosterCourse = z
  .strictObject({
    ...base,
    title: z.string(),
    courseCode: z.string(),
    grades: z.array(z.string()),
    subjects: z.array(z.string()),
    org: guidRef('org'),
  })
  .partial();

export const OneRosterClass = z
  .strictObject({
    ...base,
    title: z.string(),
    classCode: z.string(),
    classType: z.string(),
    location: z.string(),
    grades: z.array(z.string()),
    subjects: z.array(z.string()),
    course: guidRef('course'),
    school: guidRef('org'),
    terms: z.array(guidRef('academicSession')),
    periods: z.array(z.string()),
  })
  .partial();

export const OneRosterEnrollment = z
  .strictObject({
    ...base,
    user: guidRef('user'),
    class: guidRef('class'),
    school: guidRef('org'),
    role: z.string(),
    primary: z.enum(['true', 'false']),
    beginDate: date,
    endDate: date,
  })
  .partial();

export const OneRosterCategory = z
  .strictObject({
    ...base,
    title: z.string(),
    weight: z.number(),
  })
  .partial();

export const OneRosterScoreScale = z
  .strictObject({
    ...base,
    title: z.string(),
    type: z.string(),
    class: guidRef('class'),
    scoreScaleValue: z.array(z.strictObject({ itemValueLHS: z.string(), itemValueRHS: z.string() })).min(1),
  })
  .partial();

export const OneRosterLineItem = z
  .strictObject({
    ...base,
    title: z.string(),
    description: z.string(),
    assignDate: timestamp,
    dueDate: timestamp,
    class: guidRef('class'),
    school: guidRef('org'),
    category: guidRef('category'),
    gradingPeriod: guidRef('academicSession'),
    scoreScale: guidRef('scoreScale'),
    resultValueMin: z.number(),
    resultValueMax: z.number(),
  })
  .partial();

export const OneRosterResult = z
  .strictObject({
    ...base,
    lineItem: guidRef('lineItem'),
    student: guidRef('user'),
    class: guidRef('class'),
    scoreStatus: z.enum(resultStatuses),
    score: z.number(),
    textScore: z.string(),
    scoreDate: z.iso.date(),
    comment: z.string(),
  })
  .partial();

export const OneRosterAssessmentLineItem = z
  .strictObject({
    ...base,
    title: z.string(),
    description: z.string(),
    class: guidRef('class'),
    parentAssessmentLineItem: guidRef('assessmentLineItem'),
    scoreScale: guidRef('scoreScale'),
    resultValueMin: z.number(),
    resultValueMax: z.number(),
  })
  .partial();

export const OneRosterAssessmentResult = z
  .strictObject({
    ...base,
    assessmentLineItem: guidRef('assessmentLineItem'),
    student: guidRef('user'),
    score: z.number(),
    textScore: z.string(),
    scoreDate: z.iso.date(),
    scorePercentile: z.number().min(0).max(100),
    scoreStatus: z.enum(resultStatuses),
    comment: z.string(),
  })
  .partial();

export const OneRosterAcademicSessionSet = z.strictObject({
  academicSessions: z.array(OneRosterAcademicSession),
});
export const OneRosterSingleAcademicSession = z.strictObject({ academicSession: OneRosterAcademicSession });
export const OneRosterCourseSet = z.strictObject({ courses: z.array(OneRosterCourse) });
export const OneRosterSingleCourse = z.strictObject({ course: OneRosterCourse });
export const OneRosterClassSet = z.strictObject({ classes: z.array(OneRosterClass) });
export const OneRosterSingleClass = z.strictObject({ class: OneRosterClass });
export const OneRosterEnrollmentSet = z.strictObject({ enrollments: z.array(OneRosterEnrollment) });
export const OneRosterCategorySet = z.strictObject({ categories: z.array(OneRosterCategory) });
export const OneRosterSingleCategory = z.strictObject({ category: OneRosterCategory });
export const OneRosterScoreScaleSet = z.strictObject({ scoreScales: z.array(OneRosterScoreScale) });
export const OneRosterSingleScoreScale = z.strictObject({ scoreScale: OneRosterScoreScale });
export const OneRosterLineItemSet = z.strictObject({ lineItems: z.array(OneRosterLineItem) });
export const OneRosterSingleLineItem = z.strictObject({ lineItem: OneRosterLineItem });
export const OneRosterResultSet = z.strictObject({ results: z.array(OneRosterResult) });
export const OneRosterSingleResult = z.strictObject({ result: OneRosterResult });
export const OneRosterAssessmentLineItemSet = z.strictObject({
  assessmentLineItems: z.array(OneRosterAssessmentLineItem),
});
export const OneRosterSingleAssessmentLineItem = z.strictObject({
  assessmentLineItem: OneRosterAssessmentLineItem,
});
export const OneRosterAssessmentResultSet = z.strictObject({
  assessmentResults: z.array(OneRosterAssessmentResult),
});
export const OneRosterSingleAssessmentResult = z.strictObject({
  assessmentResult: OneRosterAssessmentResult,
});
export const OneRosterGUIDPairSet = z.strictObject({
  sourcedIdPairs: z.array(z.strictObject({ suppliedSourcedId: z.string(), allocatedSourcedId: z.string() })),
});
export const OneRosterSingleEnrollment = z.strictObject({ enrollment: OneRosterEnrollment });

export const OneRosterUserSet = z.strictObject({ users: z.array(OneRosterUser) });
export const OneRosterSingleUser = z.strictObject({ user: OneRosterUser });
export const OneRosterOrgSet = z.strictObject({ orgs: z.array(OneRosterOrg) });
export const OneRosterSingleOrg = z.strictObject({ org: OneRosterOrg });
export const OneRosterDemographicsSet = z.strictObject({ demographics: z.array(OneRosterDemographics) });
export const OneRosterSingleDemographics = z.strictObject({ demographics: OneRosterDemographics });

const codeMinor = z.enum([
  'fullsuccess',
  'invalid_filter_field',
  'invalid_selection_field',
  'invaliddata',
  'unauthorisedrequest',
  'forbidden',
  'server_busy',
  'unknownobject',
  'internal_server_error',
]);

export const ImsxStatusInfo = z.strictObject({
  imsx_codeMajor: z.enum(['success', 'processing', 'failure', 'unsupported']),
  imsx_severity: z.enum(['status', 'warning', 'error']),
  imsx_description: z.string().optional(),
  imsx_CodeMinor: z
    .strictObject({
      imsx_codeMinorField: z
        .array(z.strictObject({ imsx_codeMinorFieldName: z.string(), imsx_codeMinorFieldValue: codeMinor }))
        .min(1),
    })
    .optional(),
});
