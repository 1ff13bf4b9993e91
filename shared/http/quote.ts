// What a refusal repeats of the request: at most a short prefix of each value, so that answering a
// name or value of any length costs no more than answering a short one, and no problem body carries
// back what a client sent in bulk.

/** The most characters of one sent value a problem repeats; the longest field name is half of it. */
export const QUOTE_LENGTH = 64;

const ELLIPSIS = '…';

/** `sent` as a problem may repeat it: whole when short, else its first QUOTE_LENGTH characters and `…`. */
export function quote(sent: string): string {
  if (sent.length <= QUOTE_LENGTH) return sent;
  const prefix = sent.slice(0, QUOTE_LENGTH);
  // Never end on half of a surrogate pair: the problem body must stay well-formed text.
  return `${/[\uD800-\uDBFF]$/.test(prefix) ? prefix.slice(0, -1) : prefix}${ELLIPSIS}`;
}
