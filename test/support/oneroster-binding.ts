// 1EdTech's published OpenAPI file of the OneRoster 1.2 Rostering REST binding (test/fixtures/oneroster/),
// its schemas compiled with ajv, for the tests to validate every response against.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const binding = JSON.parse(
  readFileSync(
    new URL('../fixtures/oneroster/onerosterv1p2rostersservice_openapi3_v1p0.json', import.meta.url),
    'utf8',
  ),
) as { components: Record<string, unknown> };

// The binding's schemas are OpenAPI 3.0 (JSON Schema draft 7 with OpenAPI's extra keywords).
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'urn:1edtech:oneroster-rostering', components: binding.components });

/** The validator of one of the binding's schemas, by its name (`UserSetDType`, ...). */
export function bindingSchema(name: string) {
  const validate = ajv.getSchema(`urn:1edtech:oneroster-rostering#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the binding`);
  return validate;
}

/** The binding's schema of a response, by the key its body holds the objects under. */
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
};
