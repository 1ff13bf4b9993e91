// What the factory (api.ts) carries from a handler or a refusal to the request's observers.

/** A count a handler reports for its request (a failed sign-in, records written), for its metrics. */
export interface RequestCount {
  name: string;
  value: number;
  /** The one dimension it is broken down by, if any. */
  dimension?: { name: string; value: string };
}
