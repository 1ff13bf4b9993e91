// How large a request and its parts may be. Limits keep every record well inside DynamoDB's 400 KB item
// and every page of a list inside Lambda's response limit; the route table and the request schemas share them.

export const LIMITS = {
  /** A request body; larger ones get 413. */
  bodyBytes: 384 * 1024,
  /** A photo's Base64 text (about 190 KB of image). */
  photoBase64Chars: 256 * 1024,
  text: 500,
  /** A person's processnumber: their key among the group's records, so also what a lookup by it may send. */
  processnumberChars: 50,
  /** An e-mail address (RFC 5321's longest path), in a record and in a lookup. */
  emailChars: 254,
  /**
   * A query parameter that names fields, a sort or a OneRoster filter: far more than any honest request
   * needs, and well inside DynamoDB's 1,024-byte key and the headers that echo a request's address.
   */
  queryTextChars: 1_000,
  /**
   * What a OneRoster page's own query (sort, filter, fields and the rest, URL-encoded) may come to: each
   * of the four links of its Link header repeats it, and the headers must stay inside what HTTP clients
   * read (16 KB for Node's fetch) whatever characters it holds.
   */
  pagingQueryChars: 2_000,
  /** An OpenID Connect nonce or login hint: enough for any a client sends, and a small stored request. */
  openIdParamChars: 512,
  /** A list cursor: longer than any the service writes. */
  cursorChars: 512,
  listItems: 20,
  tutorStudents: 20,
  /**
   * The tutors one student may have in their care: each is an entry in a set on the student's item, so a
   * student with the largest record still takes every one of them inside DynamoDB's 400 KB item.
   */
  tutorsPerStudent: 20,
  /** A gradebook category's weight in a grade's weighted average: weights are relative to each other. */
  categoryWeight: 1_000,
  /** The letter values of a score scale (A+ to F and more). */
  scoreScaleValues: 30,
  /** The terms a class runs in: each is counted on its session in the transaction that writes the class. */
  classTerms: 12,
  /**
   * The enrollments one class or one person may hold: each is an entry of about 80 bytes in a set on the
   * class's and the person's item, so this keeps both far inside DynamoDB's 400 KB item.
   */
  enrollmentsPerRecord: 2_000,
  /**
   * The students one bulk entry names: a class's register for a date (`PUT /api/classes/{class_id}/
   * attendance/{date}`), a line item's results (`PUT /api/line_items/{line_item_id}/results`). Each is
   * written in one transaction of at most DynamoDB's 100 actions, and a new record takes three (itself,
   * its natural key's claim, its student's count of records naming them) besides the class's, the line
   * item's and the group's counts: 32 new records take 99.
   */
  bulkEntries: 32,
  /** Requests a minute a client may make when its registration names no `rate_limit` (Clever's budget). */
  clientRequestsPerMinute: 1_200,
  /**
   * The most a client may be given: 10,000 a second, above what a tenant's API stage admits, so only the
   * stage then limits it (the local run's demo client, which the tests and the benchmark drive hard).
   */
  maxClientRequestsPerMinute: 600_000,
  /** Live secrets a client may hold at once: two, so a vendor rotates without downtime. */
  liveClientSecrets: 2,
  /** Redirect URIs of each kind one client registers. */
  clientRedirectUris: 10,
  /** Schools one client may be limited to (`schools`): a district's, with room to spare. */
  clientSchools: 200,
  /** Days of a client's usage the administration API answers, and keeps. */
  clientUsageDays: 30,
  /** Webhook subscriptions one client may hold. */
  webhooksPerClient: 10,
  /** Delivery attempts the API lists for a subscription, newest first. */
  webhookDeliveriesListed: 100,
} as const;
