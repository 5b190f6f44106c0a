import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { type FolioProcess, freePort, PROCESS_TEST_MS, serveFolio } from '../helpers/processes.js';
import { startExampleSite } from '../helpers/example-site.js';
import { tempDir } from '../helpers/temp-dirs.js';

// Issue 31 item 6 in real Chromium: the showcase site (examples/site) on `folio serve` with the demo space, walked
// with JavaScript on and off. Screenshots in test-output/:
//   site-home.png          the home page: menu with submenus, language switch, hero, text, gallery, call to action
//   site-post.png          a post: byline, cover <picture>, rich text with an entry link, related posts
//   site-german.png        /de/ueber-uns: the German page, German menu and footer
//   site-form-empty.png    /contact before anything is typed
//   site-form-errors.png   /contact after sending it empty: the enhancer's errors by the fields and at the top
//   site-form-success.png  /contact sent with JavaScript: the thank-you page with the form's success message
//   site-form-thanks.png   /de/kontakt posted without JavaScript: the German thank-you page

const OUT = 'test-output';

let folio: FolioProcess;
let site: ChildProcess;
let browser: Browser;
let origin = '';

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const dataDir = tempDir('folio-site-e2e-');
  // A known port, so the asset urls Folio delivers (PUBLIC_URL) are the ones the browser can load.
  const folioPort = await freePort();
  folio = await serveFolio({
    DATA_DIR: dataDir,
    FOLIO_DEMO: 'true',
    DATABASE_URL: '',
    REDIS_URL: '',
    PORT: String(folioPort),
    PUBLIC_URL: `http://127.0.0.1:${folioPort}`,
  });
  const started = await startExampleSite(folio.base, dataDir);
  site = started.process;
  origin = started.origin;
  browser = await launchChromium();
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  site?.kill('SIGTERM');
  await folio?.stop();
});

async function open(javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1000, height: 800 } });
  context.setDefaultTimeout(10_000);
  return { context, page: await context.newPage() };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${OUT}/site-${name}.png`, fullPage: true });

/** Every image on the page has loaded (its derived variant from Folio), none is broken. */
async function imagesLoaded(page: Page): Promise<number> {
  await page.waitForFunction(`[...document.images].every((i) => i.complete)`);
  return page.$$eval('img', (imgs) => imgs.filter((i) => i.naturalWidth > 0).length);
}

describe('the showcase site in Chromium', { timeout: PROCESS_TEST_MS }, () => {
  it('walks the home page, a post and a German page along the menu and the language switch', async () => {
    const { context, page } = await open(true);
    await page.goto(`${origin}/`);
    expect(await page.textContent('h1')).toBe('Welcome to Folio');
    for (const block of ['hero', 'text', 'gallery', 'cta'])
      expect(await page.locator(`.block.${block}`).count()).toBeGreaterThan(0);
    // A picture's sources: Chromium picks AVIF, the derived image loads.
    const current = await page.$eval(
      '.hero picture img',
      (img) => (img as { currentSrc: string }).currentSrc,
    );
    expect(current).toMatch(/fm=avif/);
    expect(await imagesLoaded(page)).toBeGreaterThan(2);
    expect(await page.locator('nav.main .menu--2 a').count()).toBeGreaterThan(0);
    await shot(page, 'home');

    // Along the submenu to a post; its entry link leads to another post.
    await page.click('nav.main a[href="/blog/hello-world"]');
    await page.waitForURL(`${origin}/blog/hello-world`);
    expect(await page.textContent('h1')).toBe('Hello, world');
    expect(await page.textContent('.byline')).toContain('Mara Keller');
    expect(await imagesLoaded(page)).toBeGreaterThan(0);
    await shot(page, 'post');
    await page.click('article a[href="/blog/content-modeling"]');
    await page.waitForURL(`${origin}/blog/content-modeling`);

    // The language switch, then the German menu keeps the locale.
    await page.goto(`${origin}/about`);
    await page.click('nav.languages a[lang="de"]');
    await page.waitForURL(`${origin}/de/ueber-uns`);
    expect(await page.textContent('h1')).toBe('Über uns');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.textContent('footer')).toContain('Alle Rechte vorbehalten');
    await shot(page, 'german');
    await page.click('nav.main a[href="/de/blog"]');
    await page.waitForURL(`${origin}/de/blog`);
    expect(await page.locator('.block.posts li').count()).toBeGreaterThan(3);
    await context.close();
  });

  it('sends the contact form with JavaScript: errors in place, then the success message', async () => {
    const { context, page } = await open(true);
    await page.goto(`${origin}/contact`);
    await page.waitForSelector('form[data-folio-form="contact"]');
    await shot(page, 'form-empty');
    await page.click('.folio-submit');
    await expect.poll(() => page.textContent('[role=alert]')).toContain('Some answers are missing');
    expect(await page.locator('[data-folio-error]:not([hidden])').count()).toBeGreaterThan(2);
    await shot(page, 'form-errors');
    await page.fill('#folio-contact-f-name', 'Ada Lovelace');
    await page.fill('#folio-contact-f-email', 'ada@example.com');
    await page.selectOption('#folio-contact-f-topic', 'general');
    await page.fill('#folio-contact-f-message', 'Hello from Chromium.');
    await page.check('#folio-contact-f-consent');
    await page.click('.folio-submit');
    // Sent as JSON by the enhancer, which then follows the form's _redirect: the thank-you page.
    await page.waitForURL(`${origin}/thanks?form=contact`);
    expect(await page.textContent('main')).toContain('Thank you! We will get back to you soon.');
    await shot(page, 'form-success');
    await context.close();
  });

  it('posts the German form without JavaScript to the German thank-you page', async () => {
    const { context, page } = await open(false);
    await page.goto(`${origin}/de/kontakt`);
    await page.fill('#folio-contact-f-name', 'Ada Lovelace');
    await page.fill('#folio-contact-f-email', 'ada@example.com');
    await page.selectOption('#folio-contact-f-topic', 'general');
    await page.check('#folio-contact-f-consent');
    await page.click('.folio-submit');
    await page.waitForURL(`${origin}/de/thanks?form=contact`);
    expect(await page.textContent('h1')).toBe('Danke');
    await shot(page, 'form-thanks');
    // A failed plain post comes back with ?error=: the message at the top, without JavaScript.
    await page.goto(`${origin}/de/kontakt?error=validation_failed`);
    expect(await page.textContent('[role=alert]')).toBeTruthy();
    await context.close();
  });
});
