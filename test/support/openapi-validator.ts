// Checks a response against the API description: the status is one the operation documents, the
// content type one that status documents, the body valid against its schema (JSON Schema 2020-12, with
// ajv), and the documented required headers present and well formed. Paths and methods no operation has
// must get a 404 or 405 problem, or under the OneRoster bindings' paths their imsx_StatusInfo. Returns what is wrong; nothing when the response is as described.
import { gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { GatewayExchange } from '../../infra/local/api-gateway';
import { ONEROSTER_PATH } from '../../shared/oneroster/paths';

interface HeaderObject {
  required?: boolean;
  schema?: object;
}

interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: object }>;
}

interface OperationObject {
  responses: Record<string, ResponseObject>;
}

export interface Description {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, object> };
}

const DOCUMENT_ID = 'urn:school-api:openapi';
/** The OpenAPI document's own fields, so ajv (in strict mode) takes the document as a schema holder. */
const DOCUMENT_FIELDS = ['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security'];

const pointer = (...segments: string[]) =>
  `${DOCUMENT_ID}#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `at '${e.instancePath}' ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`)
    .join('; ');

const isJson = (mediaType: string) => /^application\/(.+\+)?json$/.test(mediaType);

export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];

  constructor(private readonly description: Description) {
    addFormats.default(this.ajv);
    for (const keyword of DOCUMENT_FIELDS) this.ajv.addKeyword(keyword);
    this.ajv.addSchema(structuredClone(description), DOCUMENT_ID);
    // Literal paths before templated ones, as API Gateway matches the most specific route.
    this.templates = Object.keys(description.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
      }));
  }

  check(exchange: GatewayExchange): string[] {
    const violations: string[] = [];
    const template = this.templates.find(({ pattern }) => pattern.test(exchange.path))?.template;
    const method = exchange.method.toLowerCase();
    const operation = template ? this.description.paths[template]?.[method] : undefined;
    if (!template || !operation) {
      this.checkUnrouted(exchange, violations);
    } else {
      const response = operation.responses[String(exchange.status)];
      if (!response) {
        violations.push(`status ${exchange.status} is not a documented response of ${method} ${template}`);
      } else {
        const at = ['paths', template, method, 'responses', String(exchange.status)];
        this.checkHeaders(exchange, response, at, violations);
        this.checkBody(exchange, response, at, violations);
      }
    }
    return violations.map((v) => `${exchange.method} ${exchange.path} -> ${exchange.status}: ${v}`);
  }

  /**
   * What API Gateway's $default route answers: a 404, or a 405 with Allow where the path exists, as a
   * problem, or as the bindings' imsx_StatusInfo under their paths.
   */
  private checkUnrouted(exchange: GatewayExchange, violations: string[]) {
    if (exchange.status !== 404 && exchange.status !== 405) {
      violations.push('no operation has this method and path, yet the status is not 404 or 405');
      return;
    }
    if (exchange.status === 405 && !exchange.headers.allow) violations.push('a 405 without an Allow header');
    const schema = exchange.path.startsWith(ONEROSTER_PATH) ? 'ImsxStatusInfo' : 'ProblemDetails';
    const mediaType = schema === 'ImsxStatusInfo' ? 'application/json' : 'application/problem+json';
    const response: ResponseObject = {
      content: { [mediaType]: { schema: { $ref: `#/components/schemas/${schema}` } } },
    };
    this.checkBody(exchange, response, ['components', 'schemas', schema], violations, true);
  }

  private checkHeaders(
    exchange: GatewayExchange,
    response: ResponseObject,
    at: string[],
    violations: string[],
  ) {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) violations.push(`the required header ${name} is missing`);
        continue;
      }
      const validate = this.validator(pointer(...at, 'headers', name, 'schema'));
      if (!validate(value)) violations.push(`header ${name} ${describeErrors(validate)}`);
    }
  }

  private checkBody(
    exchange: GatewayExchange,
    response: ResponseObject,
    at: string[],
    violations: string[],
    schemaAtPointer = false,
  ) {
    const mediaType = (exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!response.content) {
      if (exchange.body.length > 0) violations.push('a body where the description documents none');
      return;
    }
    if (!(mediaType in response.content)) {
      const documented = Object.keys(response.content).join(', ');
      violations.push(`content type ${mediaType || '(none)'} is not documented (documented: ${documented})`);
      return;
    }
    const bytes = exchange.headers['content-encoding'] === 'gzip' ? gunzipSync(exchange.body) : exchange.body;
    const text = bytes.toString('utf8');
    let body: unknown = text;
    if (isJson(mediaType)) {
      try {
        body = JSON.parse(text);
      } catch {
        violations.push(`the ${mediaType} body is not JSON`);
        return;
      }
    }
    const validate = this.validator(
      schemaAtPointer ? pointer(...at) : pointer(...at, 'content', mediaType, 'schema'),
    );
    if (!validate(body)) {
      violations.push(`body ${describeErrors(validate)}`);
    }
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(ref);
      if (!validate) throw new Error(`The description has no schema at ${ref}`);
      this.compiled.set(ref, validate);
    }
    return validate;
  }
}
