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

/** Signs in on the page `authorizationUrl` shows and returns the URL the service redirects back to. */
export async function completeSignIn(authorizationUrl: URL | string, credentials: Credentials): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
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
  const answer = await fetch(action, {
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
