// 1EdTech's published OpenAPI files of the OneRoster 1.2 Rostering and Gradebook REST bindings
// (test/fixtures/oneroster/), their schemas compiled with ajv, for the tests to validate every response
// against.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/oneroster/${file}`, import.meta.url), 'utf8')) as {
    components: Record<string, unknown>;
  };

/** Each binding's file, by the id its schemas are compiled under. */
const bindings = {
  rostering: read('onerosterv1p2rostersservice_openapi3_v1p0.json'),
  gradebook: read('onerosterv1p2gradebookservice_openapi3_v1p0.json'),
};
type Binding = keyof typeof bindings;

// The bindings' schemas are OpenAPI 3.0 (JSON Schema draft 7 with OpenAPI's extra keywords).
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const [name, binding] of Object.entries(bindings))
  ajv.addSchema({ $id: `urn:1edtech:oneroster-${name}`, components: binding.components });

/**
 * The validator of one of the bindings' schemas, by its name (`UserSetDType`, `CategoriesSetDType`, ...):
 * the rostering binding's where both have it (`imsx_StatusInfoDType`, the same in both).
 */
export function bindingSchema(name: string) {
  for (const binding of Object.keys(bindings) as Binding[]) {
    const validate = ajv.getSchema(`urn:1edtech:oneroster-${binding}#/components/schemas/${name}`);
    if (validate) return validate;
  }
  throw new Error(`no schema ${name} in the bindings`);
}

/** A response's JSON body, after checking its status and that it meets one of the bindings' schemas. */
export async function validResponse(response: Response, schemaName: string, status = 200) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(text) as Record<string, unknown>;
  const validate = bindingSchema(schemaName);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

/** A request body the binding's own schema of it accepts: what a stock client sends. */
export function bindingBody<T extends object>(schemaName: string, body: T): T {
  const validate = bindingSchema(schemaName);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

/** A reference to an object as the binding writes one, at `base` (the object's collection). */
export const bindingRef = (base: string, type: string, sourcedId: unknown, path: string) => ({
  href: `${base}${path}/${sourcedId}`,
  sourcedId,
  type,
});

/** The bindings' schema of a response, by the key its body holds the objects under. */
export const schemaOfKey: Record<string, string> = {
  users: 'UserSetDType',
  orgs: 'OrgSetDType',
  academicSessions: 'AcademicSessionSetDType',
  courses: 'CourseSetDType',
  classes: 'ClassSetDType',
  enrollments: 'EnrollmentSetDType',
  demographics: 'DemographicsSetDType',
  user: 'SingleUserDType',
  org: 'SingleOrgDType',
  academicSession: 'SingleAcademicSessionDType',
  course: 'SingleCourseDType',
  class: 'SingleClassDType',
  enrollment: 'SingleEnrollmentDType',
  categories: 'CategoriesSetDType',
  category: 'SingleCategoryDType',
  scoreScales: 'ScoreScaleSetDType',
  scoreScale: 'SingleScoreScaleDType',
  lineItems: 'LineItemSetDType',
  lineItem: 'SingleLineItemDType',
  results: 'ResultSetDType',
  result: 'SingleResultDType',
  assessmentLineItems: 'AssessmentLineItemSetDType',
  assessmentLineItem: 'SingleAssessmentLineItemDType',
  assessmentResults: 'AssessmentResultSetDType',
  assessmentResult: 'SingleAssessmentResultDType',
};
