// Checks every response a test receives against the contract's shapes: problems (contract section 5)
// and the record schemas (interface specification section 2).
import { expect } from 'vitest';
import { ProblemDetails } from '../../shared/schemas/service';

export async function expectProblem(response: Response, status: number) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = JSON.parse(text) as unknown;
  const parsed = ProblemDetails.safeParse(body);
  expect(parsed.error, text).toBeUndefined();
  expect((body as { status: number }).status).toBe(status);
  return body as ProblemDetails;
}

export async function json<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  return JSON.parse(text) as T;
}
