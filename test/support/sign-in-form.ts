// The browser's part of the code flow, done with fetch: opens the sign-in page an authorization URL
// shows, and submits its form as a person would, following the sign-in form contract of the sso design
// (a form posting username, password and the hidden request and csrf fields, with the sso_csrf cookie the
// page set). Returns where the service sends the browser back: the redirect URI with code, state and iss.

export interface Credentials {
  username: string;
  password: string;
}

interface SignInForm {
  action: string;
  method: string;
  hidden: Record<string, string>;
  fields: string[];
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the character references an attribute value may hold. */
const decodeHtml = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return entities[ref.toLowerCase()] ?? whole;
  });

/** The attributes of one start tag, by lower-case name. */
function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const body = tag.replace(/^<\w+/, '').replace(/\/?>$/, '');
  for (const [, name = '', double, single, bare] of body.matchAll(
    /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    attributes[name.toLowerCase()] = decodeHtml(double ?? single ?? bare ?? '');
  }
  return attributes;
}

function signInFormOf(html: string): SignInForm {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('the sign-in page has no form');
  const formTag = attributesOf(/<form\b[^>]*>/i.exec(form[0])?.[0] ?? '');
  const hidden: Record<string, string> = {};
  const fields: string[] = [];
  for (const [tag] of (form[1] ?? '').matchAll(/<input\b[^>]*>/gi)) {
    const input = attributesOf(tag);
    if (!input.name) continue;
    fields.push(input.name);
    if (input.type?.toLowerCase() === 'hidden') hidden[input.name] = input.value ?? '';
  }
  return { action: formTag.action ?? '', method: (formTag.method ?? 'get').toLowerCase(), hidden, fields };
}

/** The `name=value` part of the Set-Cookie that sets `name`. */
function cookieOf(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]?.trim() ?? '')
    .find((pair) => pair.startsWith(`${name}=`));
}

/**
 * The cookies a browser keeps for the service (the sign-on session among them): set by Set-Cookie,
 * forgotten when one says Max-Age=0, sent back with every request made through it.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = setCookie.split(';');
      const split = pair.indexOf('=');
      const name = pair.slice(0, split).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(split + 1).trim());
    }
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  header(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return cookie === '' ? {} : { cookie };
  }

  /** A request as the browser sends it: the jar's cookies, no redirect followed, the answer's cookies kept. */
  async fetch(url: URL | string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...this.header(), ...(init.headers as Record<string, string> | undefined) },
    });
    this.keep(response);
    return response;
  }
}

/** Where a redirect answer sends the browser. */
export function locationOf(response: Response, base: URL | string): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base);
}

/** Signs in on the page `authorizationUrl` shows and returns the URL the service redirects back to. */
export async function completeSignIn(
  authorizationUrl: URL | string,
  credentials: Credentials,
  jar?: CookieJar,
): Promise<URL> {
  const page = jar
    ? await jar.fetch(authorizationUrl)
    : await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: ${html.slice(0, 300)}`);
  const form = signInFormOf(html);
  for (const field of ['username', 'password', 'request', 'csrf']) {
    if (!form.fields.includes(field)) throw new Error(`the sign-in form has no ${field} field`);
  }
  if (form.method !== 'post') throw new Error(`the sign-in form is sent by ${form.method}, not post`);
  const cookie = cookieOf(page, 'sso_csrf');
  if (!cookie) throw new Error('the sign-in page set no sso_csrf cookie');

  const action = new URL(form.action, authorizationUrl);
  const answer = await (jar ? jar.fetch.bind(jar) : fetch)(action, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie,
      // A browser sends the page's origin with a form post; the service refuses any other.
      origin: action.origin,
    },
    body: new URLSearchParams({ ...form.hidden, ...credentials }),
  });
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) {
    throw new Error(`signing in answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  }
  return new URL(location, action);
}
