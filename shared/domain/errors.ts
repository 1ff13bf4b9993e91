// What can go wrong with a request to the records, said as what went wrong and not as how it is answered:
// the records, the data layer, the OneRoster reads and the import throw these, and each route's wiring
// (shared/wiring/domain-errors.ts) tells the HTTP kernel which status and problem each one is, which the
// route's dialect renders. The OneRoster binding's own query errors (its codeMinor values) stay its own.
import type { AuditSubject } from '../http/subject';

/** One field of the request and why it is refused: where the request carried it, by its name. */
export interface FieldProblem {
  name: string;
  in: 'query' | 'path' | 'header' | 'body';
  reason: string;
}

export abstract class DomainError extends Error {
  /** Which of the failures below it is, so that whoever answers it must answer each one. */
  abstract readonly kind: string;

  constructor(
    detail: string,
    /** The fields at fault, each with its reason, when the fault lies in named fields. */
    readonly problems?: FieldProblem[],
  ) {
    super(detail);
  }
}

/** The request says something the records cannot take: a malformed value, or one that names nothing. */
export class InvalidInputError extends DomainError {
  readonly kind = 'invalid-input';
}

/** No record has the id, or the caller may not read the one that does: the two cannot be told apart. */
export class RecordNotFoundError extends DomainError {
  readonly kind = 'record-not-found';
}

/** What was asked for is no longer kept: a deleted record, or deletions older than are retained. */
export class NoLongerKeptError extends DomainError {
  readonly kind = 'no-longer-kept';
}

/** The write does not fit the records as they are now: a taken processnumber, a record still named. */
export class StateConflictError extends DomainError {
  readonly kind = 'state-conflict';
  /** The address of the record the write clashed with, once the route knows it. */
  location?: string;

  constructor(
    detail: string,
    problems?: FieldProblem[],
    /** The record holding what the write wanted (a processnumber), by its id field. */
    readonly holder?: { field: string; id: string },
  ) {
    super(detail, problems);
  }
}

/** The write named a version of the record that is no longer its current one. */
export class StaleVersionError extends DomainError {
  readonly kind = 'stale-version';
  constructor(
    /** The record's current entity tag. */
    readonly currentTag: string,
    /** The record the condition failed on, which the failed request still read, for its audit event. */
    readonly record: AuditSubject,
  ) {
    super(
      `The record has changed: its current ETag is ${currentTag}. Read it again and reapply your change.`,
    );
  }
}

/** The caller's client is limited to some schools, and the write would reach past them. */
export class OutsideSchoolsError extends DomainError {
  readonly kind = 'outside-schools';
}

/** A signed-in person's roles do not write this group, or not where the write would reach. */
export class OutsideReachError extends DomainError {
  readonly kind = 'outside-reach';
}

/** An Idempotency-Key already used with another request body. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'idempotency-key-reused';
  constructor() {
    super(
      'This Idempotency-Key was used with another request body in the last 24 hours. Send a new key for a new request.',
      [{ name: 'Idempotency-Key', in: 'header', reason: 'already used with another body' }],
    );
  }
}

/** Every failure the domain names, each told apart by its `kind`. */
export type DomainFailure =
  | InvalidInputError
  | RecordNotFoundError
  | NoLongerKeptError
  | StateConflictError
  | StaleVersionError
  | IdempotencyKeyReusedError
  | OutsideSchoolsError
  | OutsideReachError;
