/**
 * `npm run bench -- form-again [seconds]`: what Folio's own page for a failed plain post costs. A browser post that
 * fails where the site cannot show it, or comes over the rate limit, is answered with the form rendered again
 * (errors beside fields, values from the posted body, forms.css inline) instead of a redirect. Folio in a process
 * of its own (SQLite), a contact form with conditions, 16 connections per round; each round prints requests per
 * second, p50/p99 and the server's CPU per request:
 *   over the limit (RATE_LIMIT_VISITOR_PER_MINUTE=1, every request a 429): browser posts answered with the form
 *     page, beside JSON posts answered with the 429 envelope (what every over-limit post cost before);
 *   under it: failing browser posts answered with the form page (no `_redirect_error`), beside failing posts
 *     redirected to the site with a draft (`_redirect_error`: the site's round trip, one row written per post).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autocannon, type AutocannonResult } from './lib-autocannon.js';
import { startServerChild, stopServerChild, type ServerChild } from './lib-child.js';
import { withCpuPerRequest } from './lib-proc-cpu.js';

const SERVER = join(import.meta.dirname, 'lib-spend-server.ts');
const SPACE = 'spc_bench_form_again';
const SITE = 'https://site.example';
const TOKEN = 'folio_pub_BenchFormAgainToken00000001';

const BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: SPACE, name: 'Form again', locales: [{ code: 'en', default: true }, { code: 'de' }] },
  tokens: [{ kind: 'public', value: TOKEN, origins: [SITE] }],
  types: [],
  entries: [],
  forms: [
    {
      key: 'contact',
      name: 'Contact',
      fields: [
        { key: 'name', type: 'text', label: 'Name', required: true, translations: { de: { label: 'Name' } } },
        {
          key: 'email',
          type: 'email',
          label: 'Email',
          required: true,
          translations: { de: { label: 'E-Mail' } },
        },
        {
          key: 'topic',
          type: 'select',
          label: 'Topic',
          options: [
            { value: 'general', label: 'General question' },
            { value: 'meetup', label: 'Alpine meetup' },
          ],
        },
        {
          key: 'message',
          type: 'textarea',
          label: 'Message',
          showIf: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'general' }] },
        },
        {
          key: 'guests',
          type: 'number',
          label: 'Guests',
          showIf: { match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'meetup' }] },
        },
        {
          key: 'diet',
          type: 'text',
          label: 'Dietary needs',
          showIf: { match: 'all', rules: [{ field: 'guests', op: 'greaterThan', value: 0 }] },
        },
        { key: 'consent', type: 'consent', label: 'I agree.', required: true },
      ],
      settings: { successMessage: { en: 'Thanks!' } },
    },
  ],
};

const TYPED = new URLSearchParams({
  name: 'Ada Lovelace',
  email: 'ada@example',
  topic: 'general',
  message: 'Hello! '.repeat(40),
  consent: 'true',
  _locale: 'de',
  _redirect: `${SITE}/thanks`,
});

function line(label: string, r: AutocannonResult & { cpuUs: number | null }): string {
  const cpu = r.cpuUs === null ? 'n/a' : `${Math.round(r.cpuUs)} µs`;
  return `  ${label.padEnd(58)} ${Math.round(r.requests.average).toString().padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  CPU/req ${cpu}  (${r.non2xx} non-2xx of ${r.requests.total})`;
}

async function round(
  server: ServerChild,
  seconds: number,
  headers: Record<string, string>,
  body: string,
): Promise<AutocannonResult & { cpuUs: number | null }> {
  const url = `http://127.0.0.1:${server.info.port}/v1/${SPACE}/forms/contact/submissions?token=${TOKEN}`;
  return withCpuPerRequest(server.child.pid, () =>
    autocannon({
      url,
      connections: 16,
      duration: seconds,
      method: 'POST',
      headers: { origin: SITE, ...headers },
      body,
    }),
  );
}

async function withServer(dir: string, env: Record<string, string>, run: (s: ServerChild) => Promise<void>) {
  const data = mkdtempSync(join(dir, 'data-'));
  const server = await startServerChild(SERVER, [data, join(dir, 'bundle')], env);
  try {
    await run(server);
  } finally {
    await stopServerChild(server).catch(() => undefined);
  }
}

export default async function bench(args: string[]): Promise<void> {
  const seconds = Number(args[0] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-form-again-'));
  const browser = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,*/*;q=0.8' };
  try {
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'bundle.json'), JSON.stringify(BUNDLE));
    console.log(
      `form-again: ${seconds} s per round, 16 connections, one visitor (a shared machine: compare within a run)`,
    );
    await withServer(
      dir,
      { RATE_LIMIT_VISITOR_PER_MINUTE: '1', RATE_LIMIT_FORM_PER_MINUTE: '1000000000' },
      async (s) => {
        console.log('over the limit (429):');
        const json = JSON.stringify(Object.fromEntries(TYPED));
        console.log(
          line(
            'JSON post, the 429 envelope (baseline)',
            await round(s, seconds, { 'content-type': 'application/json', accept: 'application/json' }, json),
          ),
        );
        const withError = new URLSearchParams(TYPED);
        withError.set('_redirect_error', `${SITE}/contact`);
        console.log(
          line(
            'browser post, the form again from the posted body',
            await round(s, seconds, browser, withError.toString()),
          ),
        );
      },
    );
    const unlimited = {
      RATE_LIMIT_VISITOR_PER_MINUTE: '1000000000',
      RATE_LIMIT_FORM_PER_MINUTE: '1000000000',
    };
    await withServer(dir, unlimited, async (s) => {
      console.log('failing posts (invalid email), under the limit:');
      const withError = new URLSearchParams(TYPED);
      withError.set('_redirect_error', `${SITE}/contact`);
      console.log(
        line(
          'browser post, 303 to the site with a draft (baseline)',
          await round(s, seconds, browser, withError.toString()),
        ),
      );
      console.log(
        line(
          'browser post, the form again (no _redirect_error)',
          await round(s, seconds, browser, TYPED.toString()),
        ),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
