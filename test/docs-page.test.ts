// The docs page in a real browser (Debian's chromium, driven by playwright-core): it shows every
// operation of the route table, loads nothing from another origin, breaks none of its own policy, and
// a reader can get a token with the demo client and call an operation from it.
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { routes } from '../shared/routes';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `Skipping the docs page test: no ${CHROMIUM}. Install it with apt-get install chromium (.ci/run does).`,
  );
}

describe.skipIf(!hasChromium)('GET /api/docs in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  /** Console errors, uncaught exceptions and policy violations: a page that works has none. */
  const errors: string[] = [];
  const elsewhere: string[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-background-networking'],
    });
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const origin = new URL(api.url).origin;
    // Offline: any request to another origin is refused and recorded.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await page.goto(`${api.url}/api/docs`);
    await page.locator('.opblock-tag').first().waitFor({ timeout: 20_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('shows every operation of the route table, by id, method and path, a tag at a time', async () => {
    // The tags start closed: Swagger UI stops drawing a page of about 150 open operations.
    const tags = await page
      .locator('.opblock-tag')
      .evaluateAll((found) => found.map((tag) => tag.getAttribute('data-tag') as string));
    const ids: string[] = [];
    for (const tag of tags) {
      const header = page.locator(`.opblock-tag[data-tag="${tag}"]`);
      await header.click();
      const section = page.locator('.opblock-tag-section.is-open');
      await section.locator('.opblock').first().waitFor();
      for (const id of await section.locator('.opblock-summary-operation-id').allTextContents()) {
        const route = routes.find((r) => r.id === id);
        const block = section.locator(`.opblock:has(.opblock-summary-operation-id:text-is("${id}"))`);
        expect(await block.locator('.opblock-summary-method').textContent()).toBe(route?.method);
        expect(await block.locator('.opblock-summary-path').getAttribute('data-path')).toBe(route?.path);
        ids.push(id);
      }
      await header.click();
      await section.waitFor({ state: 'detached' });
    }
    expect(ids.sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it('gets a token with the demo client and calls an operation', async () => {
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.locator('#client_id_clientCredentials').fill(DEMO_CLIENT_ID);
    await page.locator('#client_secret_clientCredentials').fill(DEMO_SECRET);
    await page.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
    await page.getByRole('button', { name: 'Remove authorization' }).first().waitFor();
    await page.locator('.modal-ux .btn-done').first().click();

    await page.locator('.opblock-tag[data-tag="system"]').click();
    const system = page.locator('#operations-system-get-system');
    await system.locator('.opblock-summary').click();
    await system.getByRole('button', { name: 'Try it out' }).click();
    await system.getByRole('button', { name: 'Execute' }).click();
    const status = system.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect(await status.textContent()).toBe('200');
    expect(await system.locator('.live-responses-table').first().textContent()).toContain(
      '"tenant_id": "demo"',
    );
  });

  it('loads nothing from another origin and logs no error', () => {
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});
