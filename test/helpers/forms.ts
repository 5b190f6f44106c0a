import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { BlobStore } from '../../src/blobs/blob-store.js';
import { importBundle } from '../../src/bundle/import-bundle.js';
import { publishForm, upsertAuthoredForm } from '../../src/forms/authoring/forms-repo.js';
import type { FormDefinition } from '../../src/forms/rules/index.js';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/config/config.js';
import { withPublish } from '../../src/content/publish-log.js';
import { type Engine, openTestEnv, type TestEnv } from './engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './fixture.js';

export type Encoding = 'json' | 'urlencoded' | 'multipart';
export type FormPairs = readonly (readonly [string, string])[];

/** A settable clock: tests pin `now` for status and `today`. */
export class TestClock {
  constructor(public current = new Date('2026-03-15T12:00:00.000Z')) {}
  readonly now = (): Date => this.current;
}

export interface FormsApp extends TestEnv {
  app: FastifyInstance;
  clock: TestClock;
  inject(opts: InjectOptions): Promise<InjectResult>;
}

export interface InjectResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
  body: any;
  headers: Record<string, unknown>;
  text: string;
}

/**
 * The real app over the fixture space, with config overrides (Turnstile URL, limits, Redis) and a pinned clock.
 * Limits are lifted unless a test sets them.
 */
export async function openFormsApp(
  engine: Engine,
  overrides: Partial<Config> = {},
  opts: { blobs?: BlobStore } = {},
): Promise<FormsApp> {
  const env = await openTestEnv(engine);
  const dir = await fixtureDir();
  await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir });
  const config: Config = {
    ...env.config,
    rateLimitVisitorPerMinute: 1_000_000,
    rateLimitFormPerMinute: 1_000_000,
    ...overrides,
  };
  const clock = new TestClock();
  const blobs = opts.blobs ?? env.blobs;
  const app = await buildApp({ config, store: env.store, blobs, clock: clock.now });
  return {
    ...env,
    config,
    app,
    clock,
    async inject(opts) {
      const res = await app.inject(opts);
      let body: unknown = null;
      try {
        body = res.json();
      } catch {
        body = null;
      }
      return { status: res.statusCode, body, headers: res.headers, text: res.body };
    },
    async close() {
      await app.close();
      await env.close();
    },
  };
}

/** Saves and publishes forms straight through the store (one cv for all), as the management API does. */
export async function putForms(
  env: TestEnv,
  spaceId: string,
  forms: readonly FormDefinition[],
): Promise<number> {
  const { cv } = await withPublish(env.store, spaceId, async (tx, cv) => {
    for (const form of forms) {
      await upsertAuthoredForm(tx, spaceId, form, new Date().toISOString());
      await publishForm(tx, spaceId, cv, form);
    }
  });
  return cv;
}

/** Encodes a submission: JSON, urlencoded pairs, or real multipart (built by the platform's FormData). */
export async function encode(
  encoding: Encoding,
  input: Record<string, unknown> | FormPairs,
  files: readonly { name: string; filename: string; content: string }[] = [],
): Promise<{ payload: string | Buffer; contentType: string }> {
  if (encoding === 'json') return { payload: JSON.stringify(input), contentType: 'application/json' };
  const pairs = Array.isArray(input) ? (input as FormPairs) : toPairs(input as Record<string, unknown>);
  if (encoding === 'urlencoded') {
    return {
      payload: new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  const form = new FormData();
  for (const [k, v] of pairs) form.append(k, v);
  for (const f of files) form.append(f.name, new Blob([f.content]), f.filename);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

function toPairs(input: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(input)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === undefined || item === null || item === false) continue;
      out.push([k, String(item)]);
    }
  }
  return out;
}

export interface SiteverifyCall {
  secret: string;
  response: string;
  remoteip: string;
  idempotencyKey: string;
}

/**
 * A real HTTP stand-in for Turnstile's siteverify on loopback. By token: `ok-…` succeeds once (a second use
 * answers `timeout-or-duplicate`, as Cloudflare does), `bad-…` fails, `slow-…` answers after `slowMs`, `500-…`
 * answers 500, `garbage-…` answers a body that is not JSON. Every call is recorded.
 */
export class SiteverifyStandIn {
  readonly calls: SiteverifyCall[] = [];
  private readonly used = new Set<string>();
  private server: Server | null = null;
  url = '';

  constructor(private readonly slowMs = 1500) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/turnstile/v0/siteverify`;
    return this;
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: string }> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const form = new URLSearchParams(raw);
    const call = {
      secret: form.get('secret') ?? '',
      response: form.get('response') ?? '',
      remoteip: form.get('remoteip') ?? '',
      idempotencyKey: form.get('idempotency_key') ?? '',
    };
    this.calls.push(call);
    const token = call.response;
    const answer = (success: boolean, codes: string[] = []) =>
      JSON.stringify({ success, 'error-codes': codes, hostname: 'site.example' });
    if (call.secret !== 'real-secret') return { status: 200, body: answer(false, ['invalid-input-secret']) };
    if (token.startsWith('slow-')) {
      await new Promise((r) => setTimeout(r, this.slowMs));
      return { status: 200, body: answer(true) };
    }
    if (token.startsWith('500-')) return { status: 500, body: '{}' };
    if (token.startsWith('garbage-')) return { status: 200, body: '<html>' };
    if (token.startsWith('bad-')) return { status: 200, body: answer(false, ['invalid-input-response']) };
    if (this.used.has(token)) return { status: 200, body: answer(false, ['timeout-or-duplicate']) };
    this.used.add(token);
    return { status: 200, body: answer(token.startsWith('ok-')) };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The visitor address form tests submit from (a documentation range, RFC 5737). */
export const VISITOR_IP = '203.0.113.77';

/**
 * Submits as a visitor of spc_test and lists stored submissions as an editor. `app` is a getter because suites
 * open their app in `beforeAll`.
 */
export function formClient(app: () => FormsApp) {
  const auth = { authorization: `Bearer ${TOKENS.public}` };
  const mgt = { authorization: `Bearer ${TOKENS.management}` };
  async function submit(
    form: string,
    input: Record<string, unknown> | FormPairs,
    opts: { encoding?: Encoding; headers?: Record<string, string>; url?: string } = {},
  ) {
    const t = app();
    const { payload, contentType } = await encode(opts.encoding ?? 'json', input);
    // Each submission a millisecond later, so "newest first" listings have a defined order.
    t.clock.current = new Date(t.clock.current.getTime() + 1);
    return t.inject({
      method: 'POST',
      url: opts.url ?? `/v1/spc_test/forms/${form}/submissions`,
      payload,
      remoteAddress: VISITOR_IP,
      headers: { 'content-type': contentType, ...auth, ...opts.headers },
    });
  }
  async function rows(form: string, folder = 'inbox') {
    const res = await app().inject({
      method: 'GET',
      url: `/v1/spaces/spc_test/forms/${form}/submissions?folder=${folder}&limit=200`,
      headers: mgt,
    });
    if (res.status !== 200) throw new Error(`listing ${form} answered ${res.status}`);
    return res.body.items as Record<string, unknown>[];
  }
  return { submit, rows };
}

/** Management and delivery calls on spc_test, as the forms suites make them. */
export function formsHttp(app: () => FormsApp) {
  const pub = { authorization: `Bearer ${TOKENS.public}` };
  const mgt = { authorization: `Bearer ${TOKENS.management}` };
  const manage = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app().inject({
      method,
      url,
      headers: mgt,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const deliver = (url: string) => app().inject({ method: 'GET', url: `/v1/spc_test${url}`, headers: pub });
  const cvNow = async () => (await deliver('/status')).body.cv as number;
  return { manage, deliver, cvNow };
}
