// The closed vocabularies of the gradebook groups, shared by the request and response schemas.

/** How a score scale gives a result: a number within a range, or one of an ordered list of letter values. */
export const scoreScaleTypes = ['numeric', 'letter'] as const;
export type ScoreScaleType = (typeof scoreScaleTypes)[number];
