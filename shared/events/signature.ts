// Deliveries are signed as the Standard Webhooks specification says (standardwebhooks.com): HMAC-SHA256
// over `<webhook-id>.<webhook-timestamp>.<body>` with the subscription's secret, sent as
// `v1,<base64>`; while a rotated secret still lives, each live secret signs, space-separated, so a
// receiver holding either verifies. The specification's own library computes it, so a receiver's
// library agrees with it byte for byte.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the specification's form: `whsec_` and 24 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The headers that carry a delivery's id, time and signatures by each of `secrets`. */
export function signedHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): SignedHeaders {
  if (secrets.length === 0) throw new Error(`No secret to sign ${messageId} with`);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
