// What a client does to start the code flow (a PKCE pair, the authorization URL) and what a test reads
// back from the sign-in page (its form fields, its CSRF cookie), shared by the sign-in tests.
import { createHash, randomBytes } from 'node:crypto';
import { DEMO_APP_ID, DEMO_REDIRECT_URIS } from '../../infra/local/bootstrap';

export const REDIRECT_URI = DEMO_REDIRECT_URIS[0] as string;

/** A code verifier and its S256 challenge (RFC 7636 section 4.1 and 4.2). */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization URL a public client sends a person to; `null` leaves a parameter out. */
export function authorizeUrl(base: string, params: Record<string, string | null> = {}): string {
  const query = new URLSearchParams();
  const all = {
    response_type: 'code',
    client_id: DEMO_APP_ID,
    redirect_uri: REDIRECT_URI,
    state: randomBytes(12).toString('base64url'),
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== null) query.append(name, value);
  return `${base}/api/sso/authorize?${query}`;
}

/** The value of a form field of the page. */
export function fieldOf(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
}

/** The sso_csrf cookie a response sets, as `name=value` to send back. */
export function csrfCookieFrom(setCookies: string[]): string | undefined {
  return setCookies.find((c) => c.startsWith('sso_csrf='))?.split(';')[0];
}

/** The query of a redirect's Location. */
export const paramsOf = (location: string) => Object.fromEntries(new URL(location).searchParams);
