// The sign-in form's POST: refuses a form from anywhere but the sign-in page (its Origin, the CSRF
// cookie and field, the hash stored with the request), has the throttle count the attempt before any
// password is checked (refusing it, unchecked, once the account or address has had its guesses), checks
// the password with one answer and the same work for every kind of failure, asks an account with a
// second factor for its TOTP code, starts a sign-on session, and sends the person back to the client
// with a single-use code (RFC 6749 section 4.1.2). The password goes nowhere but scrypt.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthorizationCodeRepository } from '../data/authorization-code-repository';
import type {
  AuthorizationRequest,
  AuthorizationRequestRepository,
} from '../data/authorization-request-repository';
import type { RecordRepository } from '../data/record-repository';
import type { AuthenticationMethod, SessionRepository } from '../data/session-repository';
import { accountThrottleSubject, nameThrottleSubject } from '../data/sign-in-throttle-repository';
import { loginName, type User, type UserRepository } from '../data/user-repository';
import type { ApiRequest, ApiResponse } from '../exchange';
import { bodyText, header } from '../http/request';
import type { BusinessCount } from '../metrics';
import { backToClient } from './authorization-request';
import { authorizationResponse, needsSecondFactor } from './authorization-response';
import { csrfCookieOf, fromOwnPage, sameSecret, servedOverHttps } from './csrf';
import { PageError, redirectTo } from './html-page';
import { opaqueTokenHash } from './opaque-token';
import { type PageText, pageText } from './page-text';
import { verifySecret } from './secret-hash';
import { codePage, signInPage } from './sign-in-page';
import type { SignInThrottle } from './sign-in-throttle';
import { sessionHashOf, startSession } from './sign-on-session';
import { matchingStep } from './totp';

const FIELDS = ['username', 'password', 'otp', 'request', 'csrf'] as const;
type SignInForm = Partial<Record<(typeof FIELDS)[number], string>>;

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Longer than any username or e-mail address, and short enough to be a table key. */
const MAX_NAME_BYTES = 512;
/** No account has this id: an unknown name is looked up as often as a known one. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/** A wrong password or code, or an attempt the throttle refused: each counts as a failed sign-in. */
const FAILED: BusinessCount[] = [{ name: 'SignInFailures', value: 1 }];

/** The form again, refused unchecked while the account or address is locked out. */
const lockedOut = (
  again: (status: number, error: string, headers?: Record<string, string>) => ApiResponse,
  text: PageText,
  retryAfterSeconds: number,
): ApiResponse => ({
  ...again(429, text.locked(Math.ceil(retryAfterSeconds / 60)), { 'retry-after': String(retryAfterSeconds) }),
  counts: FAILED,
});

const refused = () =>
  new PageError(403, (text) => ({ title: text.formRefused, message: text.notFromThisPage }));

const ended = () => new PageError(400, (text) => ({ title: text.signInEnded, message: text.signInEndedWhy }));

function readForm(event: ApiRequest['event']): SignInForm {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(header(event, 'content-type') ?? '')) {
    throw new PageError(415, (text) => ({ title: text.formRefused, message: text.notASignInForm }));
  }
  const form: SignInForm = {};
  for (const [name, value] of new URLSearchParams(bodyText(event))) {
    const field = FIELDS.find((f) => f === name);
    if (!field) continue;
    if (form[field] !== undefined) {
      throw new PageError(400, (text) => ({ title: text.formRefused, message: text.fieldTwice(field) }));
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

/** What the sign-in form uses: the stored request, the throttle, the accounts, their entities and the codes. */
export interface SignInServices {
  authorizationRequests: AuthorizationRequestRepository;
  signInThrottle: SignInThrottle;
  users: UserRepository;
  records: RecordRepository;
  codes: AuthorizationCodeRepository;
  sessions: SessionRepository;
}

/** The person has proved who they are: the request is used up, a session starts, the client gets its answer. */
async function completed(
  { event, config }: ApiRequest,
  services: SignInServices,
  request: AuthorizationRequest,
  user: User,
  amr: AuthenticationMethod[],
): Promise<ApiResponse> {
  if (!(await services.authorizationRequests.consume(request.request_id))) throw ended();
  // prompt=login or max_age brought a signed-in person back here: their old session gives way to this one.
  const previous = sessionHashOf(event);
  if (previous !== undefined) await services.sessions.delete(previous);
  const { session, cookie } = await startSession(user, amr, services.sessions, config);
  const answer = await authorizationResponse(services, request, user, session);
  return { ...redirectTo(303, backToClient(request.redirect_uri, answer, config.issuer)), cookies: [cookie] };
}

/**
 * The second step: the code of the account whose password the request's first step accepted, counted
 * by the throttle like a password, and accepted once (its time step is recorded).
 */
async function secondFactor(
  exchange: ApiRequest,
  services: SignInServices,
  request: AuthorizationRequest,
  form: SignInForm & { otp: string },
  csrf: string,
): Promise<ApiResponse> {
  const { event, config } = exchange;
  const locale = request.locale ?? config.defaultLocale;
  const text = pageText[locale];
  if (request.password_user_id === undefined) throw ended();
  const again = (status: number, error: string, headers?: Record<string, string>) =>
    codePage(
      { tenantName: config.tenantName, locale, request, csrf, error },
      { status, ...(headers ? { headers } : {}) },
    );
  const gate = await services.signInThrottle.admit(
    accountThrottleSubject(request.password_user_id),
    event.requestContext.http.sourceIp,
  );
  if (!gate.admitted) return lockedOut(again, text, gate.retryAfterSeconds);
  await sleep(gate.delayMs);
  const user = await services.users.get(request.password_user_id);
  const secret = user?.status === 'active' ? user.totp_secret : undefined;
  const step = secret === undefined ? undefined : matchingStep(secret, form.otp.trim(), Date.now() / 1000);
  if (!user || step === undefined || !(await services.users.useTotpStep(user.user_id, step))) {
    return { ...again(400, text.wrongCode), counts: FAILED };
  }
  await services.signInThrottle.succeeded(gate.ticket);
  return completed(exchange, services, request, user, ['pwd', 'otp', 'mfa']);
}

/** POST /api/sso/authorize. */
export async function signIn(exchange: ApiRequest, services: SignInServices): Promise<ApiResponse> {
  const { event, config } = exchange;
  if (!fromOwnPage(event, config.publicBaseUrl)) throw refused();
  const form = readForm(event);
  const cookie = csrfCookieOf(event, servedOverHttps(config.publicBaseUrl));
  if (!cookie || form.csrf === undefined || !sameSecret(cookie, form.csrf)) throw refused();
  const request =
    form.request !== undefined && REQUEST_ID.test(form.request)
      ? await services.authorizationRequests.get(form.request)
      : undefined;
  if (!request) throw ended();
  if (!sameSecret(opaqueTokenHash(form.csrf), request.csrf_hash)) throw refused();
  if (form.otp !== undefined)
    return secondFactor(exchange, services, request, { ...form, otp: form.otp }, cookie);

  const locale = request.locale ?? config.defaultLocale;
  const text = pageText[locale];
  const again = (status: number, error: string, headers?: Record<string, string>) =>
    signInPage(
      { tenantName: config.tenantName, locale, request, csrf: cookie, username: form.username, error },
      { status, ...(headers ? { headers } : {}) },
    );
  const { username, password } = form;
  if (!username || loginName(username) === '' || !password) return again(400, text.missing);
  // Counted against the account whichever of its names was typed, or against the name when no account
  // has it, before the password is checked: an attempt the throttle does not admit is never checked.
  const account = await accountNamed(services.users, username);
  const gate = await services.signInThrottle.admit(
    account ? accountThrottleSubject(account.user_id) : nameThrottleSubject(username),
    event.requestContext.http.sourceIp,
  );
  if (!gate.admitted) return lockedOut(again, text, gate.retryAfterSeconds);
  await sleep(gate.delayMs);
  const user = await signedIn(account, password);
  if (!user) return { ...again(400, text.failed), counts: FAILED };
  if (needsSecondFactor(user, config)) {
    // Not signed in yet: the account's attempts are forgiven only once the code is right too.
    await services.signInThrottle.passwordAccepted(gate.ticket);
    if (user.totp_secret === undefined) return again(403, text.noSecondFactor);
    await services.authorizationRequests.passwordChecked(request.request_id, user.user_id);
    return codePage({ tenantName: config.tenantName, locale, request, csrf: cookie });
  }
  await services.signInThrottle.succeeded(gate.ticket);
  return completed(exchange, services, request, user, ['pwd']);
}
