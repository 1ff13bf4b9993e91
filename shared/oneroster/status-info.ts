// Errors of the OneRoster routes, answered as the binding's imsx_StatusInfo payload (Rostering REST
// binding, section 3.3) instead of RFC 9457 problems: codeMajor `failure`, severity `error`, and the
// codeMinor value the binding names for the status.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { HttpError } from '../http/errors';
import { isExposedHttpError } from '../http/problem';

export type CodeMinor =
  | 'invalid_filter_field'
  | 'invalid_selection_field'
  | 'invaliddata'
  | 'unauthorisedrequest'
  | 'forbidden'
  | 'server_busy'
  | 'unknownobject'
  | 'internal_server_error';

/** A client error of a OneRoster request, with the codeMinor value that says which. */
export class OneRosterError extends HttpError {
  constructor(
    status: number,
    readonly codeMinor: CodeMinor,
    detail: string,
  ) {
    super(status, codeMinor, 'OneRoster request refused', detail);
  }
}

export interface StatusInfo {
  imsx_codeMajor: 'failure';
  imsx_severity: 'error';
  imsx_description: string;
  imsx_CodeMinor: {
    imsx_codeMinorField: [
      { imsx_codeMinorFieldName: 'TargetEndSystem'; imsx_codeMinorFieldValue: CodeMinor },
    ];
  };
}

const codeMinorOfStatus: Record<number, CodeMinor> = {
  400: 'invaliddata',
  401: 'unauthorisedrequest',
  403: 'forbidden',
  404: 'unknownobject',
  429: 'server_busy',
};

export const statusInfo = (codeMinor: CodeMinor, description: string): StatusInfo => ({
  imsx_codeMajor: 'failure',
  imsx_severity: 'error',
  imsx_description: description,
  imsx_CodeMinor: {
    imsx_codeMinorField: [
      { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: codeMinor },
    ],
  },
});

/**
 * What a client error says in imsx_description: its message and, where it found fields at fault, each
 * with why (`lineItem.title: required`), which the binding's status info has no other place for.
 */
const describe = ({ message, invalidParams = [] }: HttpError) =>
  invalidParams.length === 0
    ? message
    : `${message} ${invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; ')}`;

/**
 * A client error as the binding answers it: its status and headers (a 405's Allow, a 401's challenge),
 * and an imsx_StatusInfo body. What the fallback answers under the bindings' paths, too.
 */
export function clientErrorInfo(error: HttpError) {
  const codeMinor =
    error instanceof OneRosterError ? error.codeMinor : (codeMinorOfStatus[error.status] ?? 'invaliddata');
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...error.headers },
    body: statusInfo(codeMinor, describe(error)),
  };
}

/**
 * The response for an error of a OneRoster route: the error's own status and headers (a 401 keeps its
 * Bearer challenge) with an imsx_StatusInfo body. `unexpected` gives the body of anything that is not a
 * client error, after the caller has logged it.
 */
export function statusInfoResponse(
  error: unknown,
  requestId: string,
  logUnexpected: (error: unknown) => void,
): APIGatewayProxyStructuredResultV2 {
  if (error instanceof HttpError && error.status < 500) {
    const { status, headers: withError, body } = clientErrorInfo(error);
    return { statusCode: status, headers: withError, body: JSON.stringify(body) };
  }
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  // What middy's body parser refuses (a body not declared JSON: 415) is the client's error.
  if (isExposedHttpError(error)) {
    return {
      statusCode: error.statusCode,
      headers,
      body: JSON.stringify(statusInfo(codeMinorOfStatus[error.statusCode] ?? 'invaliddata', error.message)),
    };
  }
  logUnexpected(error);
  return {
    statusCode: 500,
    headers,
    body: JSON.stringify(
      statusInfo(
        'internal_server_error',
        `The request failed on our side. Quote request id ${requestId} when you report it.`,
      ),
    ),
  };
}
