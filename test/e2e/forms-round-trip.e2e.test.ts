import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEnhancer } from '../../client/scripts/bundle-enhancer.js';
import { bundleFormsCss } from '../../client/scripts/build.js';
import { parseDeliveredForm } from '../../client/src/forms/definition.js';
import { renderForm, renderSuccess } from '../../src/forms/render/render.js';
import { readDraft, readFormResult } from '../../client/src/forms/round-trip.js';
import { launchChromium } from '../helpers/chromium.js';
import { PROCESS_TEST_MS } from '../helpers/processes.js';
import { type Folio, SPACE, TOKEN, startFolio } from './form-site.js';

// The demo contact form in real Chromium, with JavaScript off and on, in English and German.
// A first post with mistakes comes back with each error beside its field, in the page's language, and every typed
// value still there (without JavaScript: the redirect's `fields` and the single-use draft); the second post
// succeeds. Screenshots, styled with @folio/client/forms.css: test-output/{en,de}-{nojs,js}-{errors,success}.png.

const WORDS = {
  en: {
    invalidEmail: 'Enter a valid email address.',
    mustBeChecked: 'This box must be checked.',
    summary: 'Some answers are missing or not valid.',
    submit: 'Send',
    success: 'Thank you! We will get back to you soon.',
  },
  de: {
    invalidEmail: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    mustBeChecked: 'Bitte kreuzen Sie dieses Kästchen an.',
    summary: 'Einige Angaben fehlen oder sind ungültig.',
    submit: 'Senden',
    success: 'Danke! Wir melden uns bald.',
  },
} as const;
type Lang = keyof typeof WORDS;

/** The site: `/contact?lang=<l>` renders the demo contact form back from a failed post; `/thanks` after success. */
class Site {
  origin = '';
  folio: Folio | null = null;
  private server: Server | null = null;
  private enhancer = '';
  private css = '';

  async start(): Promise<this> {
    this.enhancer = (await bundleEnhancer()).code;
    this.css = await bundleFormsCss();
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const send = (type: string, body: string): void => {
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    };
    if (url.pathname === '/enhance.js') return send('text/javascript', this.enhancer);
    if (url.pathname === '/forms.css') return send('text/css', this.css);
    const base = this.folio?.base ?? '';
    const lang = url.searchParams.get('lang') === 'de' ? 'de' : 'en';
    const auth = { authorization: `Bearer ${TOKEN}` };
    const [formAnswer, statusAnswer] = await Promise.all([
      fetch(`${base}/v1/${SPACE}/forms/contact?locale=${lang}`, { headers: auth }),
      fetch(`${base}/v1/${SPACE}/status`, { headers: auth }),
    ]);
    const form = parseDeliveredForm(((await formAnswer.json()) as { form: unknown }).form);
    const status = (await statusAnswer.json()) as { locales: { code: string; fallbacks: string[] }[] };
    if (url.pathname === '/thanks') return send('text/html', page(lang, renderSuccess(form)));
    const back = readFormResult(url.searchParams);
    const values = back.draft
      ? await readDraft({
          baseUrl: base,
          spaceId: SPACE,
          token: TOKEN,
          formKey: 'contact',
          draft: back.draft,
        })
      : null;
    const here = new URL(`${this.origin}/contact?lang=${lang}`);
    const html = renderForm(form, {
      baseUrl: base,
      spaceId: SPACE,
      token: TOKEN,
      redirect: `${this.origin}/thanks?lang=${lang}`,
      redirectError: here.href,
      error: back.error,
      fieldErrors: back.fieldErrors,
      ...(values ? { values } : {}),
      locales: status.locales,
      // The server is the judge: the browser's own checks would stop the first post before it is sent.
      nativeValidation: false,
    });
    return send('text/html', page(lang, html));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

const page = (lang: Lang, body: string) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Contact</title>` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<link rel="stylesheet" href="/forms.css"><style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem}</style>` +
  `<script type="module" src="/enhance.js"></script></head><body><main>${body}</main></body></html>`;

let browser: Browser;
let site: Site;

beforeAll(async () => {
  site = await new Site().start();
  site.folio = await startFolio(site.origin, []);
  browser = await launchChromium();
  mkdirSync('test-output', { recursive: true });
}, PROCESS_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await site?.folio?.t.close();
  await site?.close();
});

/** What the page shows next to each field: the error code and message, by field key. */
function shownErrors(page: Page): Promise<Record<string, [string, string]>> {
  return page.$$eval('[data-folio-error]:not([hidden])', (els) =>
    Object.fromEntries(
      els.map((e) => [
        e.closest('[data-folio-field]')?.getAttribute('data-folio-field') ?? '?',
        [e.getAttribute('data-folio-code') ?? '', (e.textContent ?? '').trim()],
      ]),
    ),
  );
}

async function typedValues(page: Page) {
  return {
    name: await page.inputValue('#folio-contact-f-name'),
    email: await page.inputValue('#folio-contact-f-email'),
    topic: await page.inputValue('#folio-contact-f-topic'),
    message: await page.inputValue('#folio-contact-f-message'),
  };
}

describe.each([
  ['en', false],
  ['de', false],
  ['en', true],
  ['de', true],
] as const)('the demo contact form in %s, JavaScript %s', (lang, js) => {
  const mode = js ? 'js' : 'nojs';
  it('comes back with errors beside the right fields and the typed values, then succeeds', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: js,
      viewport: { width: 800, height: 900 },
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      const words = WORDS[lang];
      await page.goto(`${site.origin}/contact?lang=${lang}`);
      if (js) await page.waitForFunction(`document.querySelector('[data-folio-nojs]') === null`);
      await page.fill('#folio-contact-f-name', 'Ada Lovelace');
      await page.fill('#folio-contact-f-email', 'ada@example');
      await page.selectOption('#folio-contact-f-topic', 'general');
      await page.fill('#folio-contact-f-message', `Hello from ${lang}, ${mode}!`);
      await page.click(`button.folio-submit >> text=${words.submit}`);
      if (js) await page.waitForSelector('[data-folio-error]:not([hidden])');
      else await page.waitForURL(/error=validation_failed/);

      expect(await shownErrors(page)).toEqual({
        email: ['invalid_email', words.invalidEmail],
        consent: ['must_be_checked', words.mustBeChecked],
      });
      expect(await page.textContent('.folio-alert')).toContain(words.summary);
      expect(await typedValues(page)).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example',
        topic: 'general',
        message: `Hello from ${lang}, ${mode}!`,
      });
      if (!js) {
        // The URL names fields and codes, never what was typed.
        expect(page.url()).toContain('fields=email%3Ainvalid_email%2Cconsent%3Amust_be_checked');
        expect(page.url()).not.toMatch(/Ada|example|Hello/);
      }
      await page.screenshot({ path: `test-output/${lang}-${mode}-errors.png`, fullPage: true });

      await page.fill('#folio-contact-f-email', 'ada@example.com');
      await page.check('#folio-contact-f-consent');
      await page.click(`button.folio-submit >> text=${words.submit}`);
      // The enhancer puts the success message in place of the form.
      if (js) {
        await page.waitForSelector('.folio-form--sent');
      } else await page.waitForURL(/\/thanks/);
      expect(await page.textContent('main')).toContain(words.success);
      await page.screenshot({ path: `test-output/${lang}-${mode}-success.png`, fullPage: true });

      const stored = await site
        .folio!.t.store.db.selectFrom('submissions')
        .select(['values', 'locale'])
        .where('space_id', '=', SPACE)
        .where('form_key', '=', 'contact')
        .execute();
      const mine = stored
        .map((r) => ({
          locale: r.locale,
          values: site.folio!.t.store.dialect.parseJson<Record<string, unknown>>(r.values),
        }))
        .filter((r) => r.values['message'] === `Hello from ${lang}, ${mode}!`);
      expect(mine).toEqual([
        {
          locale: lang,
          values: expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.com', consent: true }),
        },
      ]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
