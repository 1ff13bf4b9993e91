// The OneRoster binding's routes answer every error with an imsx_StatusInfo body (binding section 3.3).
import { type ErrorDialect, malformedAsBadRequest } from '../http/dialect';
import { logFailure } from '../http/problem';
import { statusInfoResponse } from './status-info';

export const imsxDialect: ErrorDialect = {
  render: (error, context) =>
    statusInfoResponse(malformedAsBadRequest(error), context.requestId, (failure) =>
      logFailure(failure, context),
    ),
};
