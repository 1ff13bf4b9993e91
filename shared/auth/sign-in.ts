// The sign-in form's POST: refuses a form from anywhere but the sign-in page (its Origin, the CSRF
// cookie and field, the hash stored with the request), has the throttle count the attempt before any
// password is checked (refusing it, unchecked, once the account or address has had its guesses), checks
// the password with one answer and the same work for every kind of failure, and sends the person back
// to the client with a single-use code (RFC 6749 section 4.1.2). The password goes nowhere but scrypt.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthorizationCodeRepository } from '../data/authorization-code-repository';
import type {
  AuthorizationRequest,
  AuthorizationRequestRepository,
} from '../data/authorization-request-repository';
import type { RecordRepository } from '../data/record-repository';
import { accountThrottleSubject, nameThrottleSubject } from '../data/sign-in-throttle-repository';
import { loginName, type User, type UserRepository } from '../data/user-repository';
import type { ApiRequest, ApiResponse } from '../http/exchange';
import { PageError, redirectTo } from '../http/html-page';
import { bodyText, header } from '../http/request';
import { type AuthorizationError, backToClient } from './authorization-request';
import { csrfCookieOf, fromOwnOrigin, sameSecret } from './csrf';
import { newOpaqueToken, opaqueTokenHash } from './opaque-token';
import { rolesOf } from './person';
import { scopesOfRoles } from './roles';
import { verifySecret } from './secret-hash';
import { signInPage } from './sign-in-page';
import type { SignInThrottle } from './sign-in-throttle';

/** A code is exchanged at once by the client; a minute covers a slow network (RFC 6749 section 4.1.2). */
export const CODE_TTL_SECONDS = 60;

const FIELDS = ['username', 'password', 'request', 'csrf'] as const;
type SignInForm = Partial<Record<(typeof FIELDS)[number], string>>;

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Longer than any username or e-mail address, and short enough to be a table key. */
const MAX_NAME_BYTES = 512;
/** No account has this id: an unknown name is looked up as often as a known one. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** Unknown name, wrong password, disabled or locked account: one answer for all of them. */
const FAILED =
  'The username or password is not right, or the account cannot sign in. Check them and try again.';

const refused = () =>
  new PageError(
    403,
    'This form cannot be sent',
    'The sign-in form did not come from this sign-in page, or your browser did not keep its cookie. ' +
      'Go back to the app and start signing in again.',
  );

const ended = () =>
  new PageError(
    400,
    'This sign-in has ended',
    'The sign-in page has expired or was already used. Go back to the app and start signing in again.',
  );

const lockedMessage = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
};

function readForm(event: ApiRequest['event']): SignInForm {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(header(event, 'content-type') ?? '')) {
    throw new PageError(415, 'This form cannot be sent', 'Send the sign-in form from the sign-in page.');
  }
  const form: SignInForm = {};
  for (const [name, value] of new URLSearchParams(bodyText(event))) {
    const field = FIELDS.find((f) => f === name);
    if (!field) continue;
    if (form[field] !== undefined) {
      throw new PageError(400, 'This form cannot be sent', `The form holds the field ${field} twice.`);
    }
    form[field] = value;
  }
  return form;
}

/**
 * The account a name signs in to, if any. Every attempt reads a login claim and an account (an id no
 * account has when the name is unknown), so no name is quicker to look up than another.
 */
async function accountNamed(users: UserRepository, name: string): Promise<User | undefined> {
  const known = Buffer.byteLength(loginName(name)) <= MAX_NAME_BYTES ? await users.byLogin(name) : undefined;
  if (!known) await users.get(NO_ACCOUNT);
  return known;
}

/**
 * The account, if the password opens it and it may sign in. One scrypt check every time (against a
 * decoy hash when there is no account), so no failure is quicker than another.
 */
async function signedIn(account: User | undefined, password: string): Promise<User | undefined> {
  const verified = await verifySecret(password, account?.password_hash);
  return verified && account?.status === 'active' ? account : undefined;
}

/**
 * What the client gets back for a signed-in person: a code for the scopes asked for that their roles
 * grant, or access_denied when their roles grant none of them. The request itself was valid (its
 * scopes are the client's, checked before sign-in), so this is the server declining for this person
 * (RFC 6749 section 4.1.2.1), not invalid_scope.
 */
async function outcome(
  services: Pick<SignInServices, 'records' | 'codes'>,
  request: AuthorizationRequest,
  user: User,
): Promise<
  { code: string; state?: string } | { error: AuthorizationError; error_description: string; state?: string }
> {
  const entity = (await services.records.get('entities', user.entity_id))?.record;
  const roles = rolesOf(user, entity);
  const granted = scopesOfRoles(roles);
  const scopes = request.scopes.filter((scope) => granted.includes(scope));
  if (scopes.length === 0) {
    return {
      error: 'access_denied',
      error_description: 'This account may not read anything the app asked for.',
      ...(request.state === undefined ? {} : { state: request.state }),
    };
  }
  const code = newOpaqueToken();
  await services.codes.save({
    code_hash: opaqueTokenHash(code),
    client_id: request.client_id,
    redirect_uri: request.redirect_uri,
    redirect_uri_given: request.redirect_uri_given,
    code_challenge: request.code_challenge,
    user_id: user.user_id,
    entity_id: user.entity_id,
    roles,
    scopes,
    family_id: randomUUID(),
    expires_at: new Date(Date.now() + CODE_TTL_SECONDS * 1000).toISOString(),
  });
  return { code, ...(request.state === undefined ? {} : { state: request.state }) };
}

/** What the sign-in form uses: the stored request, the throttle, the accounts, their entities and the codes. */
export interface SignInServices {
  authorizationRequests: AuthorizationRequestRepository;
  signInThrottle: SignInThrottle;
  users: UserRepository;
  records: RecordRepository;
  codes: AuthorizationCodeRepository;
}

/** POST /api/sso/authorize. */
export async function signIn({ event, config }: ApiRequest, services: SignInServices): Promise<ApiResponse> {
  if (!fromOwnOrigin(event, config.publicBaseUrl)) throw refused();
  const form = readForm(event);
  const cookie = csrfCookieOf(event);
  if (!cookie || form.csrf === undefined || !sameSecret(cookie, form.csrf)) throw refused();
  const request =
    form.request !== undefined && REQUEST_ID.test(form.request)
      ? await services.authorizationRequests.get(form.request)
      : undefined;
  if (!request) throw ended();
  if (!sameSecret(opaqueTokenHash(form.csrf), request.csrf_hash)) throw refused();

  const again = (status: number, error: string, headers?: Record<string, string>) =>
    signInPage(
      { tenantName: config.tenantName, request, csrf: cookie, username: form.username, error },
      { status, ...(headers ? { headers } : {}) },
    );
  const { username, password } = form;
  if (!username || loginName(username) === '' || !password) {
    return again(400, 'Enter your username and your password.');
  }
  // Counted against the account whichever of its names was typed, or against the name when no account
  // has it, before the password is checked: an attempt the throttle does not admit is never checked.
  const account = await accountNamed(services.users, username);
  const gate = await services.signInThrottle.admit(
    account ? accountThrottleSubject(account.user_id) : nameThrottleSubject(username),
    event.requestContext.http.sourceIp,
  );
  if (!gate.admitted) {
    const retryAfter = String(gate.retryAfterSeconds);
    return again(429, lockedMessage(gate.retryAfterSeconds), { 'retry-after': retryAfter });
  }
  await sleep(gate.delayMs);
  const user = await signedIn(account, password);
  if (!user) return { ...again(400, FAILED), counts: [{ name: 'SignInFailures', value: 1 }] };
  await services.signInThrottle.succeeded(gate.ticket);
  if (!(await services.authorizationRequests.consume(request.request_id))) throw ended();
  return redirectTo(
    303,
    backToClient(request.redirect_uri, await outcome(services, request, user), config.issuer),
  );
}
