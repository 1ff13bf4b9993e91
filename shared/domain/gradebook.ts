// The closed vocabularies of the gradebook groups, shared by the request and response schemas.

/** How a score scale gives a result: a number within a range, or one of an ordered list of letter values. */
export const scoreScaleTypes = ['numeric', 'letter'] as const;
export type ScoreScaleType = (typeof scoreScaleTypes)[number];

/** Where a student's result stands (OneRoster 1.2's ScoreStatusEnum). */
export const resultStatuses = [
  'not submitted',
  'submitted',
  'partially graded',
  'fully graded',
  'exempt',
] as const;
export type ResultStatus = (typeof resultStatuses)[number];
