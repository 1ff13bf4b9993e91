// The sign-in pages: one form naming the school and the app asking, labelled fields the browser and
// password managers can fill, and the hidden request id and CSRF token the POST checks; the second
// factor's form; and the sign-out question and answer. Each speaks the request's language (page-text.ts).
// A form may post only here, and the redirect that follows a sign-in may go only to the client's
// redirect URI.
import type { Locale } from '../config';
import type { AuthorizationRequest } from '../data/authorization-request-repository';
import type { ApiResponse } from '../http/exchange';
import { html, htmlPage } from './html-page';
import { pageText } from './page-text';

/** Where the form posts: the contract other clients and the browser tests rely on. */
export const SIGN_IN_ACTION = '/api/sso/authorize';
/** Where the sign-out question's form posts. */
export const SIGN_OUT_ACTION = '/api/sso/logout';

export interface SignInView {
  tenantName: string;
  locale: Locale;
  request: Pick<AuthorizationRequest, 'request_id' | 'client_name' | 'redirect_uri'>;
  csrf: string;
  /** The name the person typed, kept when the form comes back, or the one the client suggested. */
  username?: string;
  /** Why the form came back. */
  error?: string;
}

type PageResponse = { status?: number; headers?: Record<string, string>; cookies?: string[] };

/** The policy source a redirect to this URI needs: its origin, or its scheme for an app's own scheme. */
export function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

const errorNote = (error: string | undefined) =>
  error ? html`<p class="error" id="sign-in-error" role="alert">${error}</p>` : undefined;

export function signInPage(view: SignInView, response: PageResponse = {}): ApiResponse {
  const text = pageText[view.locale];
  const described = view.error ? html` aria-describedby="sign-in-error"` : undefined;
  return htmlPage({
    ...response,
    lang: view.locale,
    title: text.signInTitle(view.tenantName),
    formTargets: ["'self'", redirectTarget(view.request.redirect_uri)],
    main: html`<h1>${text.signInHeading(view.tenantName)}</h1>
<p><strong>${view.request.client_name}</strong> ${text.asks}</p>
${errorNote(view.error)}
<form method="post" action="${SIGN_IN_ACTION}">
<input type="hidden" name="request" value="${view.request.request_id}">
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="username">${text.username}</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${view.username ?? ''}"${described}>
<label for="password">${text.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">${text.signIn}</button>
</form>`,
  });
}

/** The second step for an account with a TOTP secret: the code its authenticator app shows. */
export function codePage(view: Omit<SignInView, 'username'>, response: PageResponse = {}): ApiResponse {
  const text = pageText[view.locale];
  const described = view.error ? html` aria-describedby="sign-in-error"` : undefined;
  return htmlPage({
    ...response,
    lang: view.locale,
    title: text.signInTitle(view.tenantName),
    formTargets: ["'self'", redirectTarget(view.request.redirect_uri)],
    main: html`<h1>${text.codeHeading}</h1>
<p>${text.codeIntro}</p>
${errorNote(view.error)}
<form method="post" action="${SIGN_IN_ACTION}">
<input type="hidden" name="request" value="${view.request.request_id}">
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="otp">${text.code}</label>
<input id="otp" name="otp" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required${described}>
<button type="submit">${text.next}</button>
</form>`,
  });
}

/** Asks a person whether to end their session, when the app asking could not show whose it is. */
export function signOutPage(
  view: { tenantName: string; locale: Locale; hidden: Record<string, string>; redirectUri?: string },
  response: PageResponse = {},
): ApiResponse {
  const text = pageText[view.locale];
  const fields = Object.entries(view.hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">
`,
  );
  return htmlPage({
    ...response,
    lang: view.locale,
    title: text.signOutTitle(view.tenantName),
    formTargets: ["'self'", ...(view.redirectUri ? [redirectTarget(view.redirectUri)] : [])],
    main: html`<h1>${text.signOutTitle(view.tenantName)}</h1>
<p>${text.signOutQuestion}</p>
<form method="post" action="${SIGN_OUT_ACTION}">
${fields}<input type="hidden" name="confirm" value="yes">
<button type="submit">${text.signOut}</button>
</form>`,
  });
}

export function signedOutPage(view: { tenantName: string; locale: Locale }, response: PageResponse = {}) {
  const text = pageText[view.locale];
  return htmlPage({
    ...response,
    lang: view.locale,
    title: text.signedOutTitle,
    main: html`<h1>${text.signedOutTitle}</h1>
<p>${text.signedOut(view.tenantName)}</p>`,
  });
}
