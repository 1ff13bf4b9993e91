// The sign-in page: one form naming the school and the app asking, labelled fields the browser and
// password managers can fill, and the hidden request id and CSRF token the POST checks. The form may
// post only here, and the redirect that follows a sign-in may go only to the client's redirect URI.
import type { AuthorizationRequest } from '../data/authorization-request-repository';
import type { ApiResponse } from '../http/exchange';
import { html, htmlPage } from '../http/html-page';

/** Where the form posts: the contract other clients and the browser tests rely on. */
export const SIGN_IN_ACTION = '/api/sso/authorize';

export interface SignInView {
  tenantName: string;
  request: Pick<AuthorizationRequest, 'request_id' | 'client_name' | 'redirect_uri'>;
  csrf: string;
  /** The name the person typed, kept when the form comes back. */
  username?: string;
  /** Why the form came back. */
  error?: string;
}

/** The policy source a redirect to this URI needs: its origin, or its scheme for an app's own scheme. */
export function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

export function signInPage(
  view: SignInView,
  response: { status?: number; headers?: Record<string, string>; cookies?: string[] } = {},
): ApiResponse {
  const described = view.error ? html` aria-describedby="sign-in-error"` : undefined;
  return htmlPage({
    ...response,
    title: `Sign in – ${view.tenantName}`,
    formTargets: ["'self'", redirectTarget(view.request.redirect_uri)],
    main: html`<h1>Sign in to ${view.tenantName}</h1>
<p><strong>${view.request.client_name}</strong> asks you to sign in with your school account.</p>
${view.error ? html`<p class="error" id="sign-in-error" role="alert">${view.error}</p>` : undefined}
<form method="post" action="${SIGN_IN_ACTION}">
<input type="hidden" name="request" value="${view.request.request_id}">
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="username">Username or e-mail address</label>
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${view.username ?? ''}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">Sign in</button>
</form>`,
  });
}
