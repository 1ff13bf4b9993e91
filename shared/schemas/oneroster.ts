// The OneRoster 1.2 payloads this service answers with, for the API description: the fields it fills of
// the binding's UserDType, OrgDType and DemographicsDType, each optional since `fields` selects among
// them. The binding's own schemas (test/fixtures/oneroster/) are what the tests hold full responses to.
import * as z from 'zod';

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
