// Opaque credentials (authorization codes, refresh tokens, the sign-in form's CSRF tokens): 32 random
// bytes, base64url, kept in the table only by their SHA-256, so a copy of the table holds nothing that
// can be presented. The code the sign-in form issues and the grant that redeems it meet here.
import { createHash, randomBytes } from 'node:crypto';

export const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** The key an opaque credential is stored under: its SHA-256, hex. */
export const opaqueTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
