import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { buildExampleSite, type ExampleSite, startExampleSite } from '../helpers/example-site.js';
import { type FolioProcess, freePort, PROCESS_TEST_MS, serveFolio } from '../helpers/processes.js';
import { type StaticServer, serveStatic } from '../helpers/static-server.js';
import { tempDir } from '../helpers/temp-dirs.js';

// No visitor loses what they typed, in real Chromium, with JavaScript off and on, in English and German, on the
// showcase site (examples/site, rendered by its server) and on its static build (plain files on a static server):
// a bad email comes back beside its field with every value; a conditional field is hidden before anyone types
// where CSS can decide, and says when it applies where it cannot; an answer other answers hid is never dropped
// before the visitor was told; ten failed posts, then the eleventh over the limit, come back with the values; a
// reload of the error page shows them again. Then every page of the site fits 320 and 375 px without sideways
// scrolling, and axe-core finds no violation. Screenshots in test-output/site-*.png:
//   site-<live|static>-<en|de>-nojs-{errors,reload,rate-limited,told}.png   without JavaScript
//   site-<live|static>-<en|de>-js-{errors,told,restored,rate-limited}.png   with it
//   site-menu-320-{closed,open}.png, site-404.png, site-410.png, site-folio-page.png

const OUT = 'test-output';
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const WORDS = {
  en: {
    contact: '/contact',
    invalidEmail: 'Enter a valid email address.',
    notSent: 'This answer does not fit your other answers',
    toldSummary: 'Some answers do not fit your other answers',
    dietWhen: 'Only if “Guests” is more than 0.',
    rateLimited: /^Too many attempts\. Please try again in \d+ seconds\.$/,
    success: 'Thank you! We will get back to you soon.',
    message: 'Message',
    diet: 'Dietary needs of your guests',
  },
  de: {
    contact: '/de/kontakt',
    invalidEmail: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    notSent: 'Diese Angabe passt nicht zu Ihren übrigen Angaben',
    toldSummary: 'Einige Angaben passen nicht zu Ihren übrigen Angaben',
    dietWhen: 'Nur falls „Begleitpersonen“ mehr als 0 ist.',
    rateLimited: /^Zu viele Versuche\. Bitte versuchen Sie es in \d+ Sekunden erneut\.$/,
    success: 'Danke! Wir melden uns bald.',
    message: 'Nachricht',
    diet: 'Ernährungswünsche Ihrer Begleitung',
  },
} as const;
type Lang = keyof typeof WORDS;
type Kind = 'live' | 'static';

let folio: FolioProcess;
let live: ExampleSite;
let stat: StaticServer;
let browser: Browser;
let management = '';
let visitors = 0;

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
    // Each scenario is a visitor of its own (X-Forwarded-For through one trusted hop): the per-visitor limit of
    // 10 a minute is what the test exercises; the per-form and per-token limits would count every scenario.
    TRUST_PROXY: '1',
    RATE_LIMIT_FORM_PER_MINUTE: '1000000',
    RATE_LIMIT_DELIVERY_PER_MINUTE: '1000000',
    RATE_LIMIT_SHARE_PER_MINUTE: '1000000',
  });
  live = await startExampleSite(folio.base, dataDir);
  const dir = tempDir('folio-site-static-');
  stat = await serveStatic(dir);
  await buildExampleSite(folio.base, dataDir, dir, stat.origin);
  management = (JSON.parse(readFileSync(`${dataDir}/demo-tokens.json`, 'utf8')) as { management: string })
    .management;
  browser = await launchChromium();
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await stat?.close();
  live?.process.kill('SIGTERM');
  await folio?.stop();
});

const origin = (kind: Kind) => (kind === 'live' ? live.origin : stat.origin);
const contactUrl = (kind: Kind, lang: Lang) =>
  `${origin(kind)}${WORDS[lang].contact}${kind === 'static' ? '/' : ''}`;

/** A browser context for one visitor: its own address for Folio's per-visitor limit. */
async function visitor(javaScriptEnabled: boolean, ip = `10.20.${++visitors}.1`) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 800, height: 1000 } });
  context.setDefaultTimeout(15_000);
  await context.route(/\/v1\/spc_demo\/forms\/contact\/submissions/, (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }),
  );
  return { context, page: await context.newPage(), ip };
}

const control = (key: string) => `#folio-contact-f-${key}`;
const shown = (page: Page, key: string) => page.isVisible(`[data-folio-field="${key}"]`);
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${OUT}/site-${name}.png`, fullPage: true });

/** The error codes shown beside fields, by field key. */
function errors(page: Page): Promise<Record<string, string>> {
  return page.$$eval('[data-folio-error]:not([hidden])', (els) =>
    Object.fromEntries(
      els
        // In sight: not inside a field hidden by CSS or by the enhancer.
        .filter((e) => (e as unknown as { offsetParent: unknown }).offsetParent !== null)
        .map((e) => [
          e.closest('[data-folio-field]')?.getAttribute('data-folio-field') ?? '?',
          e.getAttribute('data-folio-code') ?? '',
        ]),
    ),
  );
}

async function values(page: Page) {
  const v = (key: string) => page.inputValue(control(key));
  return {
    name: await v('name'),
    email: await v('email'),
    topic: await v('topic'),
    message: await v('message'),
    guests: await v('guests'),
    diet: await v('diet'),
  };
}

/** A plain post: the click, then the page it leads to (its status). */
async function post(page: Page): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button.folio-submit')]);
  return response?.status() ?? 0;
}

/**
 * Types the scenario's answers: a message for a general question, then the topic changes to the meetup (the
 * message hides, holding its value), guests, and dietary needs that, with no guests, do not apply.
 */
async function typeAnswers(page: Page, js: boolean, tag: string, email: string, consent: boolean) {
  await page.selectOption(control('topic'), 'general');
  expect(await shown(page, 'message')).toBe(true);
  await page.fill(control('name'), `Ada ${tag}`);
  await page.fill(control('email'), email);
  await page.fill(control('message'), `Hello from ${tag}`);
  await page.selectOption(control('topic'), 'meetup');
  expect([await shown(page, 'message'), await shown(page, 'guests')]).toEqual([false, true]);
  if (js) {
    // Live: the diet shows for guests, and hides again (holding its value) when there are none.
    await page.fill(control('guests'), '2');
    expect(await shown(page, 'diet')).toBe(true);
    await page.fill(control('diet'), 'Vegetarian');
    await page.fill(control('guests'), '0');
    expect(await shown(page, 'diet')).toBe(false);
  } else {
    await page.fill(control('guests'), '0');
    await page.fill(control('diet'), 'Vegetarian');
  }
  if (consent) await page.check(control('consent'));
}

const typed = (tag: string, email = 'ada@example') => ({
  name: `Ada ${tag}`,
  email,
  topic: 'meetup',
  message: `Hello from ${tag}`,
  guests: '0',
  diet: 'Vegetarian',
});

/** What Folio stored for a scenario (the inbox, searched by the scenario's tag). */
async function stored(tag: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(
    `${folio.base}/v1/spaces/spc_demo/forms/contact/submissions?q=${encodeURIComponent(tag)}`,
    { headers: { authorization: `Bearer ${management}` } },
  );
  const body = (await res.json()) as { items: { values: Record<string, unknown> }[] };
  return body.items.map((i) => i.values);
}

/**
 * The error redirect of a plain post from a static page made before its enhancer ran (so without `_error_page`):
 * the static page with `?error=&fields=&draft=`, for the enhancer to show.
 */
async function staticErrorUrl(lang: Lang, ip: string, tag: string): Promise<string> {
  const html = await (await fetch(contactUrl('static', lang))).text();
  const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
  const hidden = [...html.matchAll(/<input type="hidden" name="(_[a-z_]+)" value="([^"]*)">/g)]
    .filter((m) => m.index !== undefined && !html.slice(m.index - 10, m.index).includes('<noscript>'))
    .map((m): [string, string] => [m[1] ?? '', (m[2] ?? '').replaceAll('&amp;', '&')]);
  const res = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams([
      ...hidden,
      ...Object.entries(typed(tag)).filter(([k]) => k !== 'message'),
    ]).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.get('location') ?? '';
}

describe.each([
  ['live', 'en'],
  ['live', 'de'],
  ['static', 'en'],
  ['static', 'de'],
] as const)('the %s site in %s', { timeout: PROCESS_TEST_MS }, (kind, lang) => {
  const w = WORDS[lang];
  const name = `${kind}-${lang}`;

  it('without JavaScript: hidden before typing, told before dropping, ten failures, the eleventh, a reload', async () => {
    const { context, page, ip } = await visitor(false);
    const tag = `${name}-nojs`;
    try {
      // The static site: one failed post first, as if made before its enhancer ran (for the enhancer below).
      const errorUrl = kind === 'static' ? await staticErrorUrl(lang, ip, `${tag}-early`) : '';
      let posts = kind === 'static' ? 1 : 0;
      await page.goto(contactUrl(kind, lang));
      // Before anyone types: CSS hides what the topic decides; the guests' diet says when it applies.
      expect([await shown(page, 'message'), await shown(page, 'guests'), await shown(page, 'diet')]).toEqual([
        false,
        false,
        true,
      ]);
      expect((await page.textContent(`${control('diet')}-when`))?.trim()).toBe(w.dietWhen);
      // The consent ticked: the browser's own check would stop the post before Folio sees it.
      await typeAnswers(page, false, tag, 'ada@example', true);
      expect(await post(page)).toBe(kind === 'live' ? 200 : 422);
      posts++;
      // Each error beside its field, every value back; the answers that would not be sent are in sight, told.
      const expected = {
        email: 'invalid_email',
        message: 'not_applicable',
        diet: 'not_applicable',
      };
      expect(await errors(page)).toEqual(expected);
      expect(await values(page)).toEqual(typed(tag));
      expect((await page.textContent(`${control('email')}-error`))?.trim()).toBe(w.invalidEmail);
      expect(await page.textContent(`${control('message')}-error`)).toContain(w.notSent);
      await shot(page, `${name}-nojs-errors`);
      // The site's error page: the redirect names fields and codes, never a value.
      const liveErrorUrl = page.url();
      if (kind === 'live') expect(liveErrorUrl).not.toContain('Ada');

      // A reload shows it all again (the site reads the draft again; Folio's page is the post again).
      await page.reload();
      if (kind === 'static') posts++;
      expect(await errors(page)).toEqual(expected);
      expect(await values(page)).toEqual(typed(tag));
      await shot(page, `${name}-nojs-reload`);

      // The posts up to the tenth: the same form sent again as it stands (the body the browser would post, sent
      // from here to spare the suite as many page loads), each refused; the browser then sends the eleventh.
      const action = String(await page.evaluate(`document.querySelector('form.folio-form').action`));
      const body = String(
        await page.evaluate(
          `new URLSearchParams(new FormData(document.querySelector('form.folio-form'))).toString()`,
        ),
      );
      while (posts < 10) {
        const res = await fetch(action, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'text/html',
            'x-forwarded-for': ip,
          },
          body,
        });
        expect(res.status).toBe(kind === 'live' ? 303 : 422);
        posts++;
      }
      // The eleventh: over the limit, and still every value back (from the posted body; nothing stored).
      expect(await post(page)).toBe(429);
      expect((await page.textContent('.folio-alert'))?.trim()).toMatch(w.rateLimited);
      expect(await values(page)).toEqual(typed(tag));
      await shot(page, `${name}-nojs-rate-limited`);
      expect(await stored(tag)).toEqual([]);

      // The same visitor with JavaScript, on the page of an earlier error: errors and values are there (rendered
      // by the site, or put back by the enhancer from the draft), and again after a reload; sending is refused
      // over the limit and nothing typed goes.
      const js = await browser.newContext({ viewport: { width: 800, height: 1000 } });
      await js.route(/\/v1\/spc_demo\/forms\/contact\/submissions/, (route) =>
        route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }),
      );
      const later = await js.newPage();
      const firstError = kind === 'live' ? liveErrorUrl : errorUrl;
      const restored = kind === 'live' ? typed(tag) : { ...typed(`${tag}-early`), message: '' };
      for (const load of [() => later.goto(firstError), () => later.reload()]) {
        await load();
        await later.waitForSelector('form[data-folio-enhanced]');
        await expect.poll(() => errors(later)).toMatchObject({ email: 'invalid_email' });
        expect(await values(later)).toEqual(restored);
      }
      await shot(later, `${name}-js-restored`);
      await later.fill(control('email'), 'ada@example.com');
      await later.check(control('consent'));
      await later.click('button.folio-submit');
      // Answers the meetup hid would not go: said once, then the form goes (and is refused: over the limit).
      await expect.poll(() => later.textContent('.folio-alert')).toContain(w.toldSummary);
      await later.click('button.folio-submit');
      await expect.poll(async () => (await later.textContent('.folio-alert'))?.trim()).toMatch(w.rateLimited);
      expect((await values(later)).name).toBe(restored.name);
      await shot(later, `${name}-js-rate-limited`);
      await js.close();
    } finally {
      await context.close();
    }
  });

  // The rest in two of the four: told, then sent (the first test covers the telling in all four).
  const both = (kind === 'live') === (lang === 'de');

  it.runIf(both)(
    'without JavaScript: an answer the topic hid is told about, then the form goes without it',
    async () => {
      const { context, page } = await visitor(false);
      const tag = `${name}-told`;
      try {
        await page.goto(contactUrl(kind, lang));
        await typeAnswers(page, false, tag, 'ada@example.com', true);
        await post(page);
        expect(await errors(page)).toEqual({ message: 'not_applicable', diet: 'not_applicable' });
        expect(await page.textContent('.folio-alert')).toContain(w.toldSummary);
        await shot(page, `${name}-nojs-told`);
        await post(page);
        expect(page.url()).toContain('/thanks/contact');
        expect(await page.textContent('main')).toContain(w.success);
        expect(await stored(tag)).toEqual([
          expect.not.objectContaining({ message: expect.anything(), diet: expect.anything() }),
        ]);
      } finally {
        await context.close();
      }
    },
  );

  it.runIf(!both)('with JavaScript: errors in place, told before dropping, then sent', async () => {
    const { context, page } = await visitor(true);
    const tag = `${name}-js`;
    try {
      await page.goto(contactUrl(kind, lang));
      await page.waitForSelector('form[data-folio-enhanced]');
      expect([await shown(page, 'message'), await shown(page, 'guests'), await shown(page, 'diet')]).toEqual([
        false,
        false,
        false,
      ]);
      await typeAnswers(page, true, tag, 'ada@example', false);
      await page.click('button.folio-submit');
      await expect.poll(() => errors(page)).toEqual({ email: 'invalid_email', consent: 'must_be_checked' });
      expect(await values(page)).toEqual(typed(tag));
      await shot(page, `${name}-js-errors`);
      await page.fill(control('email'), 'ada@example.com');
      await page.check(control('consent'));
      await page.click('button.folio-submit');
      await expect.poll(() => page.textContent('.folio-alert')).toContain(w.toldSummary);
      const alert = (await page.textContent('.folio-alert')) ?? '';
      expect([alert.includes(w.message), alert.includes(w.diet)]).toEqual([true, true]);
      await shot(page, `${name}-js-told`);
      await page.click('button.folio-submit');
      await page.waitForURL(/\/thanks\/contact/);
      expect(await page.textContent('main')).toContain(w.success);
      expect(await stored(tag)).toEqual([
        expect.not.objectContaining({ message: expect.anything(), diet: expect.anything() }),
      ]);
    } finally {
      await context.close();
    }
  });
});

/** The site's pages: every page of the sitemap in every locale, and those it has beside them. */
async function everyPage(): Promise<string[]> {
  const xml = await (await fetch(`${live.origin}/sitemap.xml`)).text();
  const pages = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
  return [
    ...pages,
    ...['/thanks/contact', '/de/thanks/contact', '/no-such-page', '/de/gibts-nicht'].map(
      (p) => `${live.origin}${p}`,
    ),
    `${live.origin}/contact?error=validation_failed&fields=email:invalid_email,consent:must_be_checked`,
    ...['/', '/de/kontakt/', '/gone/'].map((p) => `${stat.origin}${p}`),
  ];
}

// Thirty-odd pages, each measured at two widths and checked by axe: on a shared machine this takes a while.
describe('every page of the site', { timeout: 3 * PROCESS_TEST_MS }, () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  /** No sideways scrolling at 320 and 375 px, and no axe-core violation (checked as the page is, at 375). */
  async function check(url: string, on: Page = page) {
    const page = on;
    for (const width of [320, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect([url, width, overflow]).toEqual([url, width, 0]);
    }
    await page.evaluate(AXE);
    const violations = await page.evaluate(
      `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => JSON.stringify(n.target)).join(' ')))`,
    );
    expect([url, violations]).toEqual([url, []]);
  }

  it('fits 320 and 375 px and has no axe violation, as rendered without JavaScript and with it', async () => {
    const urls = await everyPage();
    expect(urls.length).toBeGreaterThan(25);
    // The check can fail: a picture without a text alternative is a violation.
    await page.setContent(
      '<!doctype html><html lang="en"><title>x</title><main><img src="data:,"></main></html>',
    );
    await page.evaluate(AXE);
    expect(await page.evaluate(`axe.run().then((r) => r.violations.map((v) => v.id))`)).toContain(
      'image-alt',
    );
    // Pictures: Chromium picks AVIF, the derived images load. Past this page they are left out of the walk (each
    // size would be derived once more, which is the image benches' business, not this test's).
    await page.goto(`${live.origin}/`);
    const hero = await page.$eval(
      '.hero picture img',
      (img) => (img as unknown as { currentSrc: string }).currentSrc,
    );
    expect(hero).toMatch(/fm=avif/);
    await page.waitForFunction(`[...document.images].every((i) => i.complete && i.naturalWidth > 0)`);
    // At 320 px the menu hides behind its summary, and opens without JavaScript's help.
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.isVisible('nav.main a[href="/blog"]')).toBe(false);
    await shot(page, 'menu-320-closed');
    await page.click('.menu-toggle > summary');
    expect(await page.isVisible('nav.main a[href="/blog"]')).toBe(true);
    await shot(page, 'menu-320-open');
    await context.route(
      (url) => url.href.startsWith(folio.base),
      (route) => (route.request().resourceType() === 'image' ? route.abort() : route.continue()),
    );
    // As without JavaScript: the enhancer is not loaded, so the pages are the markup the server wrote.
    await context.route(/\/assets\/enhance\.js$/, (route) => route.abort());
    // Three tabs walk a third of the pages each.
    const tabs = [page, await context.newPage(), await context.newPage()];
    await Promise.all(
      tabs.map(async (tab, i) => {
        for (const url of urls.filter((_, j) => j % tabs.length === i)) {
          await tab.goto(url);
          await check(url, tab);
        }
      }),
    );
    for (const tab of tabs.slice(1)) await tab.close();
    await page.goto(`${live.origin}/de/gibts-nicht`);
    expect(await page.getAttribute('a.button', 'href')).toBe('/de');
    await shot(page, '404');

    // With the enhancer: the contact pages it takes over.
    await context.unroute(/\/assets\/enhance\.js$/);
    for (const path of ['/contact', '/de/kontakt']) {
      await page.goto(`${live.origin}${path}`);
      await page.waitForSelector('form[data-folio-enhanced]');
      await check(`${live.origin}${path} (enhanced)`);
    }
  });

  it('holds Folio’s own page of a failed post to the same', async () => {
    const form = await (await fetch(`${live.origin}/de/kontakt`)).text();
    const action = /<form[^>]* action="([^"]+)"/.exec(form)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const res = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ name: 'Ada', email: 'nope', topic: 'meetup', guests: '1', _locale: 'de' }),
    });
    expect(res.status).toBe(422);
    await page.setContent(await res.text());
    await check('Folio’s page of a failed post');
    await shot(page, 'folio-page');
  });

  it('answers a redirect to a deleted page with a 410 page that leads home', async () => {
    const remove = (path: string) =>
      fetch(`${folio.base}/v1/spaces/spc_demo${path}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${management}` },
      });
    // The demo's release links to the page: the delete is refused (409 naming it) until the release is gone.
    expect((await remove('/entries/ent_about')).status).toBe(409);
    expect((await remove('/releases/rel_spring')).status).toBeLessThan(300);
    expect((await remove('/entries/ent_about')).status).toBeLessThan(300);
    const response = await page.goto(`${live.origin}/old-about`);
    expect(response?.status()).toBe(410);
    expect(await page.getAttribute('a.button', 'href')).toBe('/');
    expect(await page.locator('nav.languages a').count()).toBe(2);
    await check(`${live.origin}/old-about`);
    await shot(page, '410');
  });
});
