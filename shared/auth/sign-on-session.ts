// The sign-on session as the browser holds it: an opaque token in a Secure (when served over https),
// HttpOnly, SameSite=Lax cookie, bound to a session item that holds only the token's hash. Lax lets
// the cookie ride along when another application sends the browser here (a top-level GET), and keeps it
// off cross-site POSTs. A session is honoured only while its account is active and has not signed out
// everywhere since it started (a password change, a disabled account, `users sign-out`).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../config';
import type { AuthenticationMethod, SessionRepository, SignOnSession } from '../data/session-repository';
import type { User, UserRepository } from '../data/user-repository';
import { opaqueCookieOf } from './csrf';
import { newOpaqueToken, opaqueTokenHash } from './opaque-token';

export const SESSION_COOKIE = 'sso_session';

const secureOf = (config: Pick<Config, 'publicBaseUrl'>) =>
  new URL(config.publicBaseUrl).protocol === 'https:';

function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/api/sso',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie that makes the browser forget its session. */
export const clearedSessionCookie = (config: Pick<Config, 'publicBaseUrl'>) =>
  sessionCookie('', 0, secureOf(config));

/** The hash of the session cookie the request carries, if it carries one of ours. */
export const sessionHashOf = (event: APIGatewayProxyEventV2): string | undefined => {
  const token = opaqueCookieOf(event, SESSION_COOKIE);
  return token === undefined ? undefined : opaqueTokenHash(token);
};

/** Whether a session may still sign its account in: active, and started after its last sign-out. */
export const honours = (session: Pick<SignOnSession, 'created_at'>, user: User | undefined): user is User =>
  user?.status === 'active' && (user.signed_out_at === undefined || session.created_at >= user.signed_out_at);

/** The live session of the request's browser and its account, if there is one. */
export async function currentSession(
  event: APIGatewayProxyEventV2,
  services: { sessions: SessionRepository; users: UserRepository },
  now = new Date(),
): Promise<{ session: SignOnSession; user: User } | undefined> {
  const hash = sessionHashOf(event);
  const session = hash === undefined ? undefined : await services.sessions.get(hash, now);
  if (!session) return undefined;
  const user = await services.users.get(session.user_id);
  return honours(session, user) ? { session, user } : undefined;
}

/** A new session for a person who has just proved who they are, and the cookie that carries it. */
export async function startSession(
  user: Pick<User, 'user_id'>,
  amr: AuthenticationMethod[],
  sessions: SessionRepository,
  config: Pick<Config, 'publicBaseUrl' | 'sessionIdleSeconds' | 'sessionAbsoluteSeconds'>,
  now = new Date(),
): Promise<{ session: SignOnSession; cookie: string }> {
  const token = newOpaqueToken();
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
  const session: SignOnSession = {
    session_hash: opaqueTokenHash(token),
    user_id: user.user_id,
    auth_time: Math.floor(now.getTime() / 1000),
    amr,
    created_at: now.toISOString(),
    idle_expires_at: at(Math.min(config.sessionIdleSeconds, config.sessionAbsoluteSeconds)),
    expires_at: at(config.sessionAbsoluteSeconds),
  };
  await sessions.create(session);
  return { session, cookie: sessionCookie(token, config.sessionAbsoluteSeconds, secureOf(config)) };
}
