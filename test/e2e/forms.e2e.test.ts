import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SubmissionCase } from '../unit/forms/rules/cases.js';
import { launchChromium } from '../helpers/chromium.js';
import { PROCESS_TEST_MS } from '../helpers/processes.js';
import { CASE_ROWS, FORMS, LIMITED } from './e2e-forms.js';
import { type Folio, FormSite, SPACE, TOKEN, startFolio } from './form-site.js';

// In real Chromium: renderForm's HTML posted with JavaScript off (spec 4.4 redirect rules), and the
// enhancer on top of it: live showIf, the rules module's codes in the browser equal to the server's, uploads, steps,
// 429 and network failures (spec 7.4 renderer codes). SQLite only: the forms paths run on both engines elsewhere.
// One browser for the file; Playwright gives each launch a fresh temporary profile (user data dir).
// The demo form's screenshot is written to test-output/form.png.

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

let browser: Browser;
let site: FormSite;
let main: Folio;
let limited: Folio;

beforeAll(async () => {
  site = await new FormSite().start();
  main = await startFolio(site.origin, FORMS);
  // spec 8: one submission per minute per form, so the second answers 429.
  limited = await startFolio(site.origin, [LIMITED], { rateLimitFormPerMinute: 1 });
  site.apps.set('main', main).set('limited', limited);
  browser = await launchChromium();
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await main?.t.close();
  await limited?.t.close();
  await site?.close();
});

async function open(opts: { javaScriptEnabled: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(opts);
  context.setDefaultTimeout(5_000);
  return { context, page: await context.newPage() };
}

async function storedValues(app: Folio, form: string): Promise<Record<string, unknown>[]> {
  const rows = await app.t.store.db
    .selectFrom('submissions')
    .select('values')
    .where('space_id', '=', SPACE)
    .where('form_key', '=', form)
    .where('folder', '=', 'inbox')
    .execute();
  return rows.map((r) => app.t.store.dialect.parseJson(r.values) as Record<string, unknown>);
}

/**
 * Waits until the enhancer has answered a send: no request in flight, and a message in the alert or status. (A
 * string, as page code: the tests' TypeScript has no DOM types.)
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(`(() => {
    const form = document.querySelector('form');
    const said = (sel) => (document.querySelector(sel)?.textContent ?? '') !== '';
    return form !== null && !form.hasAttribute('aria-busy') && (said('.folio-alert') || said('.folio-status'));
  })()`);
}

/** The error codes shown next to fields, by field key. */
function shownCodes(page: Page): Promise<Record<string, string>> {
  return page.$$eval('[data-folio-error]:not([hidden])', (els) =>
    Object.fromEntries(
      els.map((e) => [
        e.closest('[data-folio-field]')?.getAttribute('data-folio-field') ?? '?',
        e.getAttribute('data-folio-code') ?? '',
      ]),
    ),
  );
}

/** Types a case's input into its rendered form, top to bottom; fields its conditions hide are left alone. */
async function enter(page: Page, formKey: string, c: SubmissionCase): Promise<void> {
  for (const f of c.fields) {
    const v = Object.hasOwn(c.input, f.key) ? c.input[f.key] : undefined;
    if (v === undefined || (await page.locator(`[data-folio-field="${f.key}"]`).first().isHidden())) continue;
    const id = `#folio-${formKey}-f-${f.key}`;
    const option = (value: unknown) => `${id}-${(f.options ?? []).findIndex((o) => o.value === value)}`;
    if (f.type === 'select') await page.selectOption(id, String(v));
    else if (f.type === 'radio') await page.check(option(v));
    else if (f.type === 'checkboxes') for (const x of Array.isArray(v) ? v : []) await page.check(option(x));
    else if (f.type === 'checkbox' || f.type === 'consent') {
      if (v === true) await page.check(id);
    } else await page.fill(id, String(v));
  }
}

describe('without JavaScript', { timeout: PROCESS_TEST_MS }, () => {
  it('posts the demo form: 303 back with ?error=validation_failed, then 303 to the success page', async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    // With native validation the browser itself stops an empty form (no script involved).
    await page.goto(`${site.origin}/form/main/contact`);
    await page.click('.folio-submit');
    await page.waitForTimeout(200);
    expect(posts).toEqual([]);

    // Without it, the server answers (spec 4.4): 303 to _redirect_error with ?error=<code>.
    await page.goto(`${site.origin}/form/main/contact?novalidate=1`);
    const failed = page.waitForResponse((r) => r.url().includes('/submissions'));
    await page.click('.folio-submit');
    expect((await failed).status()).toBe(303);
    await page.waitForURL(/[?&]error=validation_failed/);
    await expect
      .poll(() => page.textContent('[role=alert]'))
      .toContain('Some answers are missing or not valid.');
    // Without JavaScript, CSS hides the message until a topic that asks for it is chosen.
    expect(await page.isVisible('#folio-contact-f-message')).toBe(false);

    await page.fill('#folio-contact-f-name', 'Ada Lovelace');
    await page.fill('#folio-contact-f-email', 'ada@example.com');
    await page.selectOption('#folio-contact-f-topic', 'support');
    expect(await page.isVisible('#folio-contact-f-message')).toBe(true);
    await page.fill('#folio-contact-f-message', 'Hello from a browser without scripts.');
    await page.check('#folio-contact-f-consent');
    const sent = page.waitForResponse((r) => r.url().includes('/submissions'));
    await page.click('.folio-submit');
    expect((await sent).status()).toBe(303);
    await page.waitForURL(`${site.origin}/thanks/main/contact`);
    expect(await page.textContent('[role=status]')).toBe('Thank you! We will get back to you soon.');
    expect(await storedValues(main, 'contact')).toContainEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      topic: 'support',
      message: 'Hello from a browser without scripts.',
      consent: true,
    });
    await context.close();
  });
});

describe('with JavaScript', { timeout: PROCESS_TEST_MS }, () => {
  it('shows and hides fields live (showIf), validates on blur, and loads no Turnstile for a form without it', async () => {
    const { context, page } = await open({ javaScriptEnabled: true });
    await page.goto(`${site.origin}/form/main/contact?inplace=1`);
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: 'test-output/form.png', fullPage: true });
    const message = page.locator('#folio-contact-f-message');
    await expect.poll(() => message.isHidden()).toBe(true);
    await page.selectOption('#folio-contact-f-topic', 'support');
    expect([await message.isVisible(), await message.isDisabled()]).toEqual([true, false]);
    await page.selectOption('#folio-contact-f-topic', 'meetup');
    expect([await message.isHidden(), await message.isDisabled()]).toEqual([true, true]);

    await page.fill('#folio-contact-f-email', 'ada@localhost');
    await page.press('#folio-contact-f-email', 'Tab');
    expect(await shownCodes(page)).toEqual({ email: 'invalid_email' });
    expect(await page.getAttribute('#folio-contact-f-email', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#folio-contact-f-email', 'aria-describedby')).toBe(
      'folio-contact-f-email-help folio-contact-f-email-error',
    );
    // A label is what assistive technology names the field by.
    expect(await page.getByLabel('Email').getAttribute('id')).toBe('folio-contact-f-email');
    expect([site.turnstileLoads, await page.evaluate("'turnstile' in window")]).toEqual([0, false]);
    await context.close();
  });

  it('finds the same error codes as the server for rows of the shared case table (spec 7.4)', async () => {
    expect(CASE_ROWS.length).toBeGreaterThan(10);
    const { context, page } = await open({ javaScriptEnabled: true });
    await page.clock.setFixedTime(new Date(main.t.clock.current));
    for (const { c, key } of CASE_ROWS) {
      await page.goto(`${site.origin}/form/main/${key}?inplace=1`);
      await enter(page, key, c);
      await page.click('.folio-submit');
      await settled(page);
      const browserCodes = await shownCodes(page);

      const res = await fetch(`${main.base}/v1/${SPACE}/forms/${key}/submissions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
        body: new URLSearchParams(c.formData?.map(([k, v]): [string, string] => [k, v])),
      });
      const body = (await res.json()) as {
        error?: { details?: { fields?: Record<string, { code: string }> } };
      };
      const serverCodes = Object.fromEntries(
        Object.entries(body.error?.details?.fields ?? {}).map(([k, e]) => [k, e.code]),
      );
      const expected = c.expect.ok
        ? {}
        : Object.fromEntries(Object.entries(c.expect.errors).map(([k, e]) => [k, e.code]));
      expect({ case: c.name, browser: browserCodes, server: serverCodes }).toEqual({
        case: c.name,
        browser: expected,
        server: expected,
      });
      if (c.expect.ok) expect(await page.textContent('.folio-status')).not.toBe('');
    }
    await context.close();
  }, 60_000); // a row takes a page load and a send: about 0.3 s each

  it('uploads a file first, then submits its id; the stored submission holds the file', async () => {
    const { context, page } = await open({ javaScriptEnabled: true });
    await page.goto(`${site.origin}/form/main/upload?inplace=1`);
    await page.fill('#folio-upload-f-name', 'Grace');
    // The browser's check of `accept` gives the server's code before any upload.
    await page.setInputFiles('#folio-upload-f-cv', {
      name: 'cv.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hi'),
    });
    expect(await shownCodes(page)).toEqual({ cv: 'file_type' });
    await page.setInputFiles('#folio-upload-f-cv', {
      name: 'cv.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    expect(await shownCodes(page)).toEqual({});
    const uploads = page.waitForResponse((r) => r.url().includes('/uploads'));
    await page.click('.folio-submit');
    expect((await uploads).status()).toBe(201);
    await settled(page);
    expect(await page.textContent('.folio-status')).toBe('Got your CV.');
    expect(site.turnstileLoads).toBe(1);

    const [values] = await storedValues(main, 'upload');
    expect(values).toEqual({ name: 'Grace', cv: expect.stringMatching(/^fup_/) });
    const upload = await main.t.store.db
      .selectFrom('uploads')
      .select(['name', 'type', 'submission_id'])
      .where('id', '=', String(values?.cv))
      .executeTakeFirstOrThrow();
    expect(upload).toEqual({ name: 'cv.pdf', type: 'application/pdf', submission_id: expect.any(String) });
    await context.close();
  });

  it('walks a form step by step (sections), validating only the current step', async () => {
    const { context, page } = await open({ javaScriptEnabled: true });
    await page.goto(`${site.origin}/form/main/steps?inplace=1`);
    const step = (i: number) => page.locator(`[data-folio-step="${i}"]`);
    expect([
      await step(0).isVisible(),
      await step(1).isHidden(),
      await page.isHidden('.folio-submit'),
    ]).toEqual([true, true, true]);
    await step(0).locator('.folio-next').click();
    expect(await shownCodes(page)).toEqual({ name: 'required' });
    expect(await step(0).isVisible()).toBe(true);
    await page.fill('#folio-steps-f-name', 'Lin');
    await step(0).locator('.folio-next').click();
    expect(await step(1).isVisible()).toBe(true);
    expect(await step(1).locator('.folio-step-count').textContent()).toBe('Step 2 of 3');
    await page.fill('#folio-steps-f-guests', '20');
    await step(1).locator('.folio-next').click();
    expect(await shownCodes(page)).toEqual({ guests: 'too_large' });
    await page.fill('#folio-steps-f-guests', '3');
    await step(1).locator('.folio-next').click();
    await step(2).locator('.folio-back').click();
    expect(await step(1).isVisible()).toBe(true);
    await step(1).locator('.folio-next').click();
    await page.fill('#folio-steps-f-notes', 'Window seat');
    await page.click('.folio-submit');
    await settled(page);
    expect(await page.textContent('.folio-status')).toBe('Booked.');
    expect(await storedValues(main, 'steps')).toEqual([{ name: 'Lin', guests: 3, notes: 'Window seat' }]);
    await context.close();
  });

  it('shows a 429 as rate_limited with the wait, and a failed fetch as network_error', async () => {
    const { context, page } = await open({ javaScriptEnabled: true });
    const send = async (url: string, email: string) => {
      await page.goto(url);
      await page.fill('[type=email]', email);
      await page.click('.folio-submit');
      await settled(page);
    };
    await send(`${site.origin}/form/limited/limited?inplace=1`, 'a@example.com');
    expect(await page.textContent('.folio-status')).toBe('Noted.');
    const refused = page.waitForResponse((r) => r.url().includes('/submissions'));
    await send(`${site.origin}/form/limited/limited?inplace=1`, 'b@example.com');
    expect((await refused).status()).toBe(429);
    expect(await page.textContent('[role=alert]')).toMatch(
      /^Too many attempts\. Please try again in \d+ seconds\.$/,
    );

    await page.route('**/submissions?*', (route) => route.abort('internetdisconnected'));
    await page.goto(`${site.origin}/form/main/contact?inplace=1`);
    await page.fill('#folio-contact-f-name', 'Ada');
    await page.fill('#folio-contact-f-email', 'ada@example.com');
    await page.selectOption('#folio-contact-f-topic', 'meetup');
    await page.check('#folio-contact-f-consent');
    await page.click('.folio-submit');
    await settled(page);
    expect(await page.textContent('[role=alert]')).toBe(
      'The form could not be sent. Please check your connection and try again.',
    );
    // Back online, the same form sends.
    await page.unroute('**/submissions?*');
    await page.click('.folio-submit');
    await settled(page);
    expect(await page.textContent('.folio-status')).toBe('Thank you! We will get back to you soon.');
    await context.close();
  });
});
