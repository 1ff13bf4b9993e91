// The sign-in page in a real browser (Debian's chromium, driven by playwright-core): a person signs in
// as the demo guardian for the public demo app with a real PKCE pair, with and without JavaScript and
// on a phone's screen, and the browser lands on the app's registered redirect URI with a code, the same
// state and iss. The redirect URI is intercepted in the browser, so nothing has to listen there.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID } from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import { opaqueTokenHash } from '../shared/auth/opaque-token';
import { base32Decode, base32Encode, totp } from '../shared/auth/totp';
import { AuthorizationCodeRepository } from '../shared/data/authorization-code-repository';
import { authorizeUrl, paramsOf, pkce, REDIRECT_URI } from './support/sign-in';
import { startTestApi, type TestApi } from './support/test-api';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `Skipping the sign-in page test: no ${CHROMIUM}. Install it with apt-get install chromium (.ci/run does).`,
  );
}

const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

describe.skipIf(!hasChromium)('the sign-in page in Chromium (RFC 6749 section 4.1, RFC 7636)', () => {
  let api: TestApi;
  let browser: Browser;

  beforeAll(async () => {
    api = await startTestApi();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-background-networking'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  /**
   * Opens the sign-in page in a new context, recording console errors (policy violations among them)
   * and any request to another origin; the redirect URI answers from inside the browser.
   */
  async function openSignIn(options: BrowserContextOptions, extra: Record<string, string> = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors: string[] = [];
    const elsewhere: string[] = [];
    let refererToApp: string | undefined;
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const origin = new URL(api.url).origin;
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${REDIRECT_URI}?`)) {
        refererToApp = route.request().headers().referer;
        return route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><title>Back in the app</title><p>Signed in.</p>',
        });
      }
      if (new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const { verifier, challenge } = pkce();
    const state = randomBytes(16).toString('base64url');
    const response = await page.goto(authorizeUrl(api.url, { code_challenge: challenge, state, ...extra }));
    expect(response?.status()).toBe(200);
    return { context, page, errors, elsewhere, verifier, state, refererToApp: () => refererToApp };
  }

  type Opened = Awaited<ReturnType<typeof openSignIn>>;

  /** Where the browser ended up, checked as the app would check it, and the code as stored. */
  async function expectBackInTheApp({ page, verifier, state }: Pick<Opened, 'page' | 'verifier' | 'state'>) {
    await page.waitForURL(`${REDIRECT_URI}?**`);
    const url = page.url();
    expect(url.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    const { code, ...rest } = paramsOf(url);
    expect(rest).toEqual({ state, iss: `${api.url}/api/sso` });
    const codes = new AuthorizationCodeRepository(api.db, api.tableName);
    const redemption = await codes.redeem(opaqueTokenHash(code as string));
    expect(redemption.outcome).toBe('redeemed');
    if (redemption.outcome !== 'redeemed') return;
    const guardian = await api.users.byLogin('guardian');
    expect(redemption.code).toMatchObject({
      client_id: DEMO_APP_ID,
      user_id: guardian?.user_id,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    });
    expect(Date.parse(redemption.code.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    return redemption.code;
  }

  it('signs the guardian in and lands on the registered redirect URI, with no error and nothing from elsewhere', async () => {
    const opened = await openSignIn({});
    const { page } = opened;
    expect(await page.title()).toBe('Sign in – Demo School (Agrupamento de Escolas Demo)');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Sign in to Demo School (Agrupamento de Escolas Demo)',
    );
    expect(await page.locator('main').textContent()).toContain('Demo app, a public client (local run only)');
    expect(await page.locator('script').count()).toBe(0);
    await page.getByLabel('Username or e-mail address').fill('guardian');
    await page.getByLabel('Password').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectBackInTheApp(opened);
    expect(opened.errors).toEqual([]);
    expect(opened.elsewhere).toEqual([]);
    // The app is not told the sign-in page's address.
    expect(opened.refererToApp()).toBeUndefined();
    await opened.context.close();
  });

  it('shows a wrong password as an alert and signs in on the second try', async () => {
    const opened = await openSignIn({});
    const { page } = opened;
    await page.getByLabel('Username or e-mail address').fill('guardian');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not right');
    expect(await page.getByLabel('Username or e-mail address').inputValue()).toBe('guardian');
    await page.getByLabel('Password').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectBackInTheApp(opened);
    // The browser reports the failed sign-in's 400; nothing else.
    expect(opened.errors).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await opened.context.close();
  });

  it('works with JavaScript off, by keyboard alone', async () => {
    const opened = await openSignIn({ javaScriptEnabled: false });
    const { page } = opened;
    await page.getByLabel('Username or e-mail address').focus();
    await page.keyboard.type('guardian');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_USER_PASSWORD);
    // Enter in the password field submits the form (a locator action, which waits for the navigation).
    await page.getByLabel('Password').press('Enter');
    await expectBackInTheApp(opened);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it('fits a 360 px phone screen: no sideways scrolling, every control inside the screen', async () => {
    const opened = await openSignIn(PHONE);
    const { page } = opened;
    // Evaluated in the page, whose DOM types this Node project does not load.
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(widths.client).toBe(360);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    for (const control of [
      page.getByLabel('Username or e-mail address'),
      page.getByLabel('Password'),
      page.getByRole('button', { name: 'Sign in' }),
    ]) {
      const box = await control.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
      // Large enough to tap (WCAG 2.5.8 asks for 24 px at least).
      expect(box?.height).toBeGreaterThanOrEqual(24);
    }
    // Inputs of 16 px or more keep phone browsers from zooming in on focus.
    const fontSize = (await page.evaluate(
      "getComputedStyle(document.getElementById('password')).fontSize",
    )) as string;
    expect(Number.parseFloat(fontSize)).toBeGreaterThanOrEqual(16);
    await page.getByLabel('Username or e-mail address').tap();
    await page.keyboard.type('guardian');
    await page.getByLabel('Password').tap();
    await page.keyboard.type(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectBackInTheApp(opened);
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it("speaks Portuguese to a Portuguese browser, and the language ui_locales asks for over the browser's", async () => {
    const opened = await openSignIn({ locale: 'pt-PT' });
    const { page } = opened;
    expect(await page.locator('html').getAttribute('lang')).toBe('pt');
    expect(await page.title()).toBe('Iniciar sessão – Demo School (Agrupamento de Escolas Demo)');
    expect(await page.locator('main').textContent()).toContain('pede-lhe que inicie sessão');
    expect(await page.locator('script').count()).toBe(0);
    await page.getByLabel('Nome de utilizador ou endereço de e-mail').fill('guardian');
    await page.getByLabel('Palavra-passe').fill('not-the-password');
    await page.getByRole('button', { name: 'Iniciar sessão' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('não estão certos');
    await page.getByLabel('Palavra-passe').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sessão' }).click();
    await expectBackInTheApp(opened);
    expect(opened.elsewhere).toEqual([]);
    await opened.context.close();

    const english = await openSignIn({ locale: 'pt-PT' }, { ui_locales: 'en-GB pt' });
    expect(await english.page.locator('html').getAttribute('lang')).toBe('en');
    expect(await english.page.getByRole('button').textContent()).toBe('Sign in');
    await english.context.close();
  });

  it('asks an account with a TOTP authenticator for its code, then keeps the session for the next sign-in', async () => {
    const guardian = await api.users.byLogin('guardian');
    const secret = base32Encode(randomBytes(20));
    await api.users.update(guardian?.user_id as string, { totp_secret: secret });
    try {
      const opened = await openSignIn({});
      const { page } = opened;
      await page.getByLabel('Username or e-mail address').fill('guardian');
      await page.getByLabel('Password').fill(DEMO_USER_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Code').fill('000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('not right');
      await page.getByLabel('Code').fill(totp(base32Decode(secret), Date.now() / 1000));
      await page.getByRole('button', { name: 'Continue' }).click();
      expect((await expectBackInTheApp(opened))?.amr).toEqual(['pwd', 'otp', 'mfa']);

      // The same browser, another request: the session answers at once, no page and no password. (The
      // browser's own request context sends its cookies; a navigation's redirect would leave the test.)
      const silent = await page.request.get(authorizeUrl(api.url, { code_challenge: pkce().challenge }), {
        maxRedirects: 0,
      });
      expect(silent.status()).toBe(302);
      const { code } = paramsOf(silent.headers().location as string);
      const codes = new AuthorizationCodeRepository(api.db, api.tableName);
      const redemption = await codes.redeem(opaqueTokenHash(code as string));
      expect(redemption.outcome === 'redeemed' && redemption.code.amr).toEqual(['pwd', 'otp', 'mfa']);
      await opened.context.close();
    } finally {
      await api.users.removeTotp(guardian?.user_id as string);
    }
  });
});
