// The imsx_StatusInfo payloads of OneRoster errors (Rostering REST binding, section 3.3).
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../http/errors';
import { OneRosterError, statusInfoResponse } from './status-info';

const respond = (error: unknown) => {
  const logged: unknown[] = [];
  const response = statusInfoResponse(error, 'req-1', (e) => logged.push(e));
  return { response, body: JSON.parse(String(response.body)), logged };
};
const codeMinorOf = (body: {
  imsx_CodeMinor: { imsx_codeMinorField: { imsx_codeMinorFieldValue: string }[] };
}) => body.imsx_CodeMinor.imsx_codeMinorField[0]?.imsx_codeMinorFieldValue;

describe('statusInfoResponse', () => {
  it('keeps a OneRoster error status and codeMinor', () => {
    const { response, body } = respond(new OneRosterError(400, 'invalid_filter_field', 'bad filter'));
    expect(response.statusCode).toBe(400);
    expect(body).toEqual({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_description: 'bad filter',
      imsx_CodeMinor: {
        imsx_codeMinorField: [
          { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'invalid_filter_field' },
        ],
      },
    });
  });

  it('gives the binding codeMinor of other client errors, and keeps their challenge headers', () => {
    const unauthorized = respond(new UnauthorizedError('no token', false));
    expect(codeMinorOf(unauthorized.body)).toBe('unauthorisedrequest');
    expect(unauthorized.response.headers?.['www-authenticate']).toMatch(/^Bearer /);
    expect(codeMinorOf(respond(new ForbiddenError('a', 'b')).body)).toBe('forbidden');
    expect(codeMinorOf(respond(new NotFoundError('gone')).body)).toBe('unknownobject');
  });

  it('logs anything else and answers 500 with only the request id', () => {
    const { response, body, logged } = respond(new Error('DynamoDB said no: secret detail'));
    expect(response.statusCode).toBe(500);
    expect(codeMinorOf(body)).toBe('internal_server_error');
    expect(body.imsx_description).toContain('req-1');
    expect(JSON.stringify(body)).not.toContain('secret detail');
    expect(logged).toHaveLength(1);
  });
});
