// How large a request and its parts may be. Limits keep every record well inside DynamoDB's 400 KB item
// and every page of a list inside Lambda's response limit; the route table and the request schemas share them.

export const LIMITS = {
  /** A request body; larger ones get 413. */
  bodyBytes: 384 * 1024,
  /** A photo's Base64 text (about 190 KB of image). */
  photoBase64Chars: 256 * 1024,
  text: 500,
  listItems: 20,
  tutorStudents: 20,
  /** The terms a class runs in: each is counted on its session in the transaction that writes the class. */
  classTerms: 12,
  /**
   * The enrollments one class or one person may hold: each is an entry of about 80 bytes in a set on the
   * class's and the person's item, so this keeps both far inside DynamoDB's 400 KB item.
   */
  enrollmentsPerRecord: 2_000,
} as const;
