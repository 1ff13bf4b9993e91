// Server-rendered pages for people's browsers (the sign-in page and its error pages): one layout with a
// language, a phone viewport and one inline style sheet that the policy allows by its hash, no script,
// nothing from elsewhere; and the headers that keep every page and redirect from being framed, cached
// or leaking its address. Text reaches the markup only through `html`, which escapes it.
import { createHash } from 'node:crypto';
import type { Locale } from '../config';
import { HttpError } from '../http/errors';
import type { ApiResponse } from '../http/exchange';
import { type ErrorText, pageText } from './page-text';

/** Markup that is already safe to send. */
export class Html {
  constructor(readonly markup: string) {}
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

type Interpolated = string | number | Html | readonly Html[] | false | undefined;

/** A template whose interpolated text is escaped; `Html` (and lists of it) is kept as is, false and undefined drop out. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  const part = (value: Interpolated): string => {
    if (value === undefined || value === false) return '';
    if (value instanceof Html) return value.markup;
    if (Array.isArray(value)) return value.map(part).join('');
    return escapeText(String(value));
  };
  return new Html(
    strings.reduce((out, text, i) => out + text + (i < values.length ? part(values[i]) : ''), ''),
  );
}

const STYLE = [
  '*,*::before,*::after{box-sizing:border-box}',
  'html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;line-height:1.5;color:#1b1f24;background:#f3f4f6}',
  'body{margin:0;padding:1rem}',
  'main{max-width:26rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border:1px solid #c9ced6;border-radius:.5rem;overflow-wrap:anywhere}',
  'h1{font-size:1.5rem;line-height:1.25;margin:0 0 .75rem}',
  'p{margin:0 0 1rem}',
  'label{display:block;font-weight:600;margin-top:1rem}',
  'input{display:block;width:100%;margin-top:.25rem;padding:.625rem .75rem;font:inherit;font-size:1rem;color:inherit;background:#fff;border:1px solid #5f6773;border-radius:.375rem}',
  'button{display:block;width:100%;margin-top:1.5rem;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:.375rem;cursor:pointer}',
  'input:focus-visible,button:focus-visible{outline:3px solid #1e3a8a;outline-offset:2px}',
  '.error{padding:.75rem;border-left:4px solid #b91c1c;background:#fdecec;color:#7a1212}',
].join('');

/**
 * The style sheet's hash, taken on the first page or redirect rather than at import, so that no function
 * pays for hashing at cold start.
 */
let styleSource: string | undefined;
const styleSourceOnce = () =>
  (styleSource ??= `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`);

/**
 * The headers of every page and redirect: a policy that allows the page's own style sheet and nothing
 * else, forms posting only to `formTargets` (none: no form may post), never framed or cached. No page
 * sends a Referer elsewhere; a page with a form keeps it for its own origin, because under no-referrer
 * browsers send the form's POST with `Origin: null`, which the form's origin check refuses.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${styleSourceOnce()}`,
      'img-src data:',
      `form-action ${formTargets.length > 0 ? formTargets.join(' ') : "'none'"}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': formTargets.length > 0 ? 'same-origin' : 'no-referrer',
    'cache-control': 'no-store',
  };
}

export interface Page {
  status?: number;
  /** The page's language (BCP 47); English when not given. */
  lang?: string;
  title: string;
  main: Html;
  /** Where the page's form may post to, as policy sources ("'self'", an origin). */
  formTargets?: readonly string[];
  headers?: Record<string, string>;
  cookies?: string[];
}

export function htmlPage(page: Page): ApiResponse {
  const document = html`<!doctype html>
<html lang="${page.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
${page.main}
</main>
</body>
</html>
`;
  return {
    status: page.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...pageHeaders(page.formTargets),
      ...page.headers,
    },
    rawBody: document.markup,
    ...(page.cookies ? { cookies: page.cookies } : {}),
  };
}

/** A redirect with the pages' headers; no body. */
export function redirectTo(status: 302 | 303, location: string): ApiResponse {
  return { status, headers: { ...pageHeaders(), location } };
}

/** What an error page says, in one of the pages' languages: its heading, and what to do. */
export type ErrorWording = (text: ErrorText) => { title: string; message: string };

/**
 * An error a person sees as a page, in their language: the title is its heading, the message tells them
 * what to do. Its title and message as an HttpError, for logs and tests, are the English ones.
 */
export class PageError extends HttpError {
  constructor(
    status: number,
    readonly wording: ErrorWording,
    headers: Record<string, string> = {},
  ) {
    const { title, message } = wording(pageText.en.errors);
    super(status, 'page', title, message, headers);
  }
}

/** Who an error page speaks for, and in which language. */
export interface PageView {
  tenantName: string;
  locale: Locale;
}

export function errorPage(
  view: PageView,
  error: { status: number; title: string; message: string; headers: Record<string, string> },
): ApiResponse {
  return htmlPage({
    status: error.status,
    lang: view.locale,
    title: `${error.title} – ${view.tenantName}`,
    main: html`<h1>${error.title}</h1>
<p>${error.message}</p>
<p>${view.tenantName}</p>`,
    headers: error.headers,
  });
}
