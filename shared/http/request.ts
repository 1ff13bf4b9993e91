// Reading the parts of an API Gateway (payload v2) request the handlers use.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError } from './errors';
import { quote } from './quote';

/** Query parameters parsed from the raw query string, so repeats are seen rather than joined. */
export class QueryParams {
  private readonly values = new Map<string, string[]>();

  constructor(rawQueryString: string) {
    for (const [name, value] of new URLSearchParams(rawQueryString)) {
      this.values.set(name, [...(this.values.get(name) ?? []), value]);
    }
  }

  names(): string[] {
    return [...this.values.keys()];
  }

  /** Every value the parameter is given, in order. */
  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }

  /** The parameter's one value; a parameter given twice is refused. */
  get(name: string): string | undefined {
    const values = this.values.get(name);
    if (values && values.length > 1) {
      throw new BadRequestError(`The query parameter ${quote(name)} is given more than once.`, [
        { name: quote(name), in: 'query', reason: 'given more than once' },
      ]);
    }
    return values?.[0];
  }
}

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name.toLowerCase()];
}

export function bodyText(event: APIGatewayProxyEventV2): string {
  if (typeof event.body !== 'string') return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
