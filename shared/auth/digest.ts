// SHA-256 of a string as hex: how codes, CSRF tokens and account names are kept without keeping them.
import { createHash } from 'node:crypto';

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
