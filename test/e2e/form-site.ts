// The two servers of the browser tests, both on loopback: Folio itself (the real app on SQLite, listening), and a
// tiny site that renders forms with renderForm, serves the enhancer bundle and a stand-in for Turnstile's script.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundleEnhancer } from '../../client/scripts/bundle-enhancer.js';
import { parseDeliveredForm } from '../../client/src/forms/definition.js';
import { escapeHtml } from '../../src/forms/render/html.js';
import { readFormError, renderForm, renderSuccess } from '../../src/forms/render/render.js';
import { importBundle } from '../../src/bundle/import-bundle.js';
import type { Config } from '../../src/config/config.js';
import { CASE_NOW, CASE_TIME_ZONE } from '../unit/forms/rules/cases.js';
import type { FormDefinition } from '../../src/forms/rules/index.js';
import { fixtureDir } from '../helpers/fixture.js';
import { type FormsApp, openFormsApp, putForms } from '../helpers/forms.js';

export const SPACE = 'spc_e2e';
export const TOKEN = 'folio_pub_E2eFormsToken00000000001';

/** A Folio app listening on loopback, with the e2e space (its token allows the site's origin). */
export interface Folio {
  t: FormsApp;
  base: string;
}

function demoBundle(): { space: { locales: unknown }; lists: unknown[]; forms: FormDefinition[] } {
  return JSON.parse(readFileSync(new URL('../../examples/demo/bundle.json', import.meta.url), 'utf8'));
}

/** The demo space's contact form and lists, in a space on the case table's time zone (`today` as the rules see it). */
function e2eBundle(siteOrigin: string): Record<string, unknown> {
  const demo = demoBundle();
  // Without notification settings: no mail jobs for a mail server the tests do not run.
  const contact = demo.forms
    .filter((f) => f.key === 'contact')
    .map((f) => ({ ...f, settings: { ...f.settings, notify: [], notifyRules: [] } }));
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Browser tests', timeZone: CASE_TIME_ZONE, locales: demo.space.locales },
    tokens: [{ kind: 'public', value: TOKEN, origins: [siteOrigin] }],
    types: [],
    entries: [],
    lists: demo.lists,
    forms: contact,
  };
}

export async function startFolio(
  siteOrigin: string,
  forms: FormDefinition[],
  config: Partial<Config> = {},
): Promise<Folio> {
  const t = await openFormsApp('sqlite', config);
  // The case table's clock (`today` in date bounds); the browser gets the same one.
  t.clock.current = new Date(CASE_NOW);
  await importBundle(t.store, t.blobs, e2eBundle(siteOrigin), { baseDir: await fixtureDir() });
  await putForms(t, SPACE, forms);
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base };
}

/** Stands in for Cloudflare's api.js: renders a box, hands out Cloudflare's dummy token, again after each reset. */
const TURNSTILE_STUB = `
window.turnstileRenders = 0;
const callbacks = {};
window.turnstile = {
  render(el, opts) {
    const id = 'w' + ++window.turnstileRenders;
    callbacks[id] = opts.callback;
    el.textContent = 'Turnstile (test stand-in)';
    setTimeout(() => opts.callback('XXXX.DUMMY.TOKEN.XXXX'), 20);
    return id;
  },
  reset(id) { setTimeout(() => callbacks[id] && callbacks[id]('XXXX.DUMMY.TOKEN.XXXX'), 20); },
};`;

const CSS = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; color: #1b1b1b; }
.folio-field { margin: 0 0 1rem; border: 0; padding: 0; }
.folio-label { display: block; font-weight: 600; }
.folio-field input:not([type=checkbox]):not([type=radio]), .folio-field select, .folio-field textarea {
  display: block; width: 100%; box-sizing: border-box; padding: .4rem; font: inherit; }
.folio-help { margin: .1rem 0 .3rem; color: #555; font-size: .9rem; }
.folio-error { margin: .2rem 0 0; color: #b00020; font-weight: 600; }
[aria-invalid=true] { outline: 2px solid #b00020; }
.folio-alert:not(:empty) { border: 2px solid #b00020; padding: .5rem 1rem; margin-bottom: 1rem; }
.folio-status:not(:empty) { border: 2px solid #1a7f37; padding: .5rem 1rem; margin-bottom: 1rem; }
.folio-submit, .folio-step-nav button { font: inherit; padding: .4rem 1.2rem; margin-right: .5rem; }`;

const page = (title: string, body: string, script: boolean) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${CSS}</style>` +
  `${script ? '<script type="module" src="/enhance.js"></script>' : ''}</head><body><main>${body}</main></body></html>`;

/**
 * The site: `/form/<app>/<key>` renders the form from the app's delivered definition (`?novalidate=1` renders it
 * without native validation, `?inplace=1` without `_redirect`), `/thanks/<app>/<key>` shows its success message.
 */
export class FormSite {
  readonly apps = new Map<string, Folio>();
  turnstileLoads = 0;
  origin = '';
  private server: Server | null = null;
  private enhancer = '';

  async start(): Promise<this> {
    this.enhancer = (await bundleEnhancer()).code;
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const send = (status: number, type: string, body: string, cache = 'no-store') => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': cache });
      res.end(body);
    };
    if (url.pathname === '/enhance.js') return send(200, 'text/javascript', this.enhancer, 'max-age=600');
    if (url.pathname === '/turnstile.js') {
      this.turnstileLoads += 1;
      return send(200, 'text/javascript', TURNSTILE_STUB);
    }
    const [, kind, appName, key] = url.pathname.split('/');
    const app = this.apps.get(appName ?? '');
    if (!app || !key || (kind !== 'form' && kind !== 'thanks')) return send(404, 'text/plain', 'not found');
    const answer = await fetch(`${app.base}/v1/${SPACE}/forms/${key}?locale=en`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const form = parseDeliveredForm(((await answer.json()) as { form: unknown }).form);
    if (kind === 'thanks') return send(200, 'text/html', page('Thanks', renderSuccess(form), false));
    const here = new URL(url);
    here.searchParams.delete('error');
    const html = renderForm(form, {
      baseUrl: app.base,
      spaceId: SPACE,
      token: TOKEN,
      ...(url.searchParams.has('inplace') ? {} : { redirect: `${this.origin}/thanks/${appName}/${key}` }),
      redirectError: here.href,
      error: readFormError(url.searchParams),
      query: url.searchParams,
      timeZone: CASE_TIME_ZONE,
      now: new Date(CASE_NOW),
      nativeValidation: url.searchParams.get('novalidate') !== '1',
      turnstileScriptUrl: `${this.origin}/turnstile.js`,
    });
    const name = escapeHtml(form.name);
    return send(200, 'text/html', page(name, `<h1>${name}</h1>${html}`, true));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
