// The component registry: every schema the API description names, each registered once under its
// component name (the specification's name where it gives one, interface-spec section 2.8). Route rows
// refer to these names; a new request or response shape is one schema plus one line here.
import { z } from 'zod';
import {
  Address,
  BankAccount,
  Contact,
  EntitiesList,
  Entity,
  EntityRole,
  IdentificationDocument,
  Staff,
  StaffsList,
  Student,
  StudentsList,
  Teacher,
  TeachersList,
  Tutor,
  TutorsList,
} from './records';
import {
  AuthorizationServerMetadata,
  BadRequestHttpException,
  InternalServerErrorHttpException,
  Jwks,
  NotFoundHttpException,
  OAuthErrorResponse,
  OAuthMeResponse,
  OAuthTokenRequest,
  OAuthTokenResponse,
  OpenApiDocument,
  ProblemDetails,
  PublicJsonWebKey,
  SystemStatus,
} from './service';

interface Component {
  schema: z.ZodType;
  description: string;
}

const componentTable = {
  EntitiesAddresses: { schema: Address, description: 'A postal address.' },
  EntitiesContacts: { schema: Contact, description: 'A phone number, e-mail address or other contact.' },
  EntityIdentificationDocument: {
    schema: IdentificationDocument,
    description: 'An identity document and its validity.',
  },
  EntityBankAccount: {
    schema: BankAccount,
    description:
      'A bank account. `back_account_number` is spelled so and holds an IBAN. Records always carry ' +
      'the array under `bankAccounts`; clients should accept `bank_accounts` too.',
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
  SystemStatus: {
    schema: SystemStatus,
    description: 'The tenant, the service version and health, and the count of each record group.',
  },
  OAuthTokenRequest: {
    schema: OAuthTokenRequest,
    description: 'A client_credentials grant (RFC 6749 section 4.4), as a form or as JSON.',
  },
  OAuthTokenResponse: { schema: OAuthTokenResponse, description: 'An access token (RFC 6749 section 5.1).' },
  OAuthErrorResponse: {
    schema: OAuthErrorResponse,
    description: 'A token endpoint error (RFC 6749 section 5.2).',
  },
  OAuthMeResponse: { schema: OAuthMeResponse, description: 'Who the calling token belongs to.' },
  PublicJsonWebKey: { schema: PublicJsonWebKey, description: 'A public token-signing key.' },
  Jwks: { schema: Jwks, description: 'The public keys that sign access tokens (RFC 7517).' },
  AuthorizationServerMetadata: {
    schema: AuthorizationServerMetadata,
    description: 'OAuth 2.0 authorization server metadata (RFC 8414).',
  },
  OpenApiDocument: { schema: OpenApiDocument, description: 'This API description, OpenAPI 3.1.' },
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
} as const satisfies Record<string, Component>;

export type ComponentName = keyof typeof componentTable;

export const componentNames = Object.keys(componentTable) as ComponentName[];

export const componentSchema = (name: ComponentName): z.ZodType => componentTable[name].schema;

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
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
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
