// How each domain error (shared/domain/errors.ts) is answered: the status, problem type, title, headers
// and members the HTTP kernel renders in the route's dialect. Every factory gives this to its routes.
import { DomainError, type DomainFailure } from '../domain/errors';
import { BadRequestError, HttpError, NotFoundError } from '../http/errors';

type Answers = { [K in DomainFailure['kind']]: (error: Extract<DomainFailure, { kind: K }>) => HttpError };

const answers: Answers = {
  'invalid-input': (error) => new BadRequestError(error.message, error.problems),
  'record-not-found': (error) => new NotFoundError(error.message),
  'no-longer-kept': (error) => new HttpError(410, 'gone', 'Gone', error.message),
  'state-conflict': (error) =>
    new HttpError(
      409,
      'conflict',
      'Conflict',
      error.message,
      error.location === undefined ? {} : { location: error.location },
      error.problems,
      // The holder's id as an extension member, so a client can find the record it clashed with.
      error.holder ? { [error.holder.field]: error.holder.id } : {},
    ),
  'stale-version': (error) => {
    const failed = new HttpError(412, 'precondition-failed', 'Precondition Failed', error.message, {
      etag: error.currentTag,
    });
    failed.audit = error.record;
    return failed;
  },
  'outside-schools': (error) =>
    new HttpError(403, 'outside-schools', 'Forbidden', error.message, {}, error.problems),
  'outside-reach': (error) =>
    new HttpError(403, 'outside-reach', 'Forbidden', error.message, {}, error.problems),
  'idempotency-key-reused': (error) =>
    new HttpError(422, 'idempotency-key-reused', 'Unprocessable Content', error.message, {}, error.problems),
};

/** The HTTP error a domain error is answered with; any other error as it is. */
export function httpErrorOf(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const failure = error as DomainFailure;
  return (answers[failure.kind] as (failure: DomainFailure) => HttpError)(failure);
}
