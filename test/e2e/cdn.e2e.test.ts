// The edge for real: Folio behind Varnish (deploy/varnish/folio.vcl, purged by `folio purge-relay` from Folio's
// own webhooks) and behind nginx (deploy/nginx/folio.conf, which caches pinned answers and checks their token at
// Folio). After a rename, an unpublish, a hidden reference published, a menu edit, a form closing and a token
// revoked, every warmed URL read through each cache equals what Folio answers (its `cv` member aside) 100 ms
// after the last purge landed; no pinned answer is evicted by a publish; no answer crosses tokens; previews are
// never stored; a list of 100 entries passes nginx's default buffers. Hit ratio and purge latency are printed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PurgeRelay, startPurgeRelay } from '../../src/cli/purge-relay.js';
import { DEMO_SPACE, type DemoApp, openDemoApp } from '../helpers/demo-app.js';
import { type CacheProcess, startNginx, startVarnish } from '../helpers/edge-caches.js';
import { TOKENS } from '../helpers/fixture.js';
import { PROCESS_START_MS, PROCESS_TEST_MS } from '../helpers/processes.js';

const OTHER = 'folio_pub_EdgeSecondToken00000000001';
const PREVIEW = 'folio_prv_EdgePreviewToken0000000001';

interface Read {
  status: number;
  body: string;
  headers: Headers;
}

/**
 * A body without what names the cv the answer was made at rather than what it shows: its `cv` member, and the
 * cv a list's `nextCursor` carries (an answer kept across publishes that did not change it still pages the same
 * entries from its own cv).
 */
const comparable = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), (key, value: unknown) =>
      key === 'cv' || key === 'toCv' ? undefined : key === 'nextCursor' && value !== null ? 'next' : value,
    );
  } catch {
    return body;
  }
};

/** Where two texts part, for a short failure message. */
const firstDifference = (a: string, b: string): string => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`;
};

describe('Folio behind Varnish and nginx', { timeout: PROCESS_TEST_MS * 2 }, () => {
  let t: DemoApp;
  let origin = '';
  let varnish: CacheProcess;
  let nginx: CacheProcess;
  let relay: PurgeRelay;
  const purgeMs: number[] = [];
  const counts = { hit: 0, miss: 0 };
  let pinnedAt = 0;

  beforeAll(async () => {
    t = await openDemoApp('sqlite', {
      copies: 110,
      noAi: true,
      config: {
        worker: true,
        webhookAllowPrivate: true,
        cdn: { tagHeader: 'surrogate-key', maxAge: 86_400 },
      },
      tokens: [
        { kind: 'public', value: OTHER },
        { kind: 'preview', value: PREVIEW },
      ],
    });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = address;
    const port = Number(new URL(address).port);
    [varnish, nginx] = await Promise.all([startVarnish(port), startNginx(port)]);
    const created = await t.api('POST', '/webhooks', { url: 'http://127.0.0.1:1/', events: ['*'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    relay = await startPurgeRelay(
      {
        host: '127.0.0.1',
        port: 0,
        secret: created.body.webhook.secret,
        targets: [new URL(varnish.base)],
        method: 'PURGE',
        header: 'xkey-purge',
        timeoutMs: 5000,
      },
      () => {},
    );
    const relayAddress = relay.server.address();
    const relayPort = typeof relayAddress === 'object' && relayAddress ? relayAddress.port : 0;
    const moved = await t.api('PATCH', `/webhooks/${created.body.webhook.id}`, {
      url: `http://127.0.0.1:${relayPort}/`,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    pinnedAt = (await t.get('/status')).body.cv;
  }, PROCESS_START_MS * 2);

  afterAll(async () => {
    await relay?.close();
    await Promise.all([varnish?.stop(), nginx?.stop()]);
    await t?.close();
  });

  const read = async (base: string, path: string, token: string | null = TOKENS.public): Promise<Read> => {
    const res = await fetch(`${base}/v1/${DEMO_SPACE}${path}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    const read = { status: res.status, body: await res.text(), headers: res.headers };
    const cache = res.headers.get('x-cache');
    if (cache?.startsWith('HIT')) counts.hit++;
    else if (cache !== null) counts.miss++;
    return read;
  };

  /** Waits until every job the last change queued (its events and their webhook deliveries) ran. */
  async function eventsDone(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from outbox
        where status = 'pending' and kind in ('event', 'webhook')`.execute(t.store.db);
      if (Number(rows[0]?.n ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error('webhook deliveries did not finish');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const current = [
    '/entries/by-path/?locale=en',
    '/entries/by-path/about?locale=en',
    '/entries/by-path/ueber-uns?locale=de',
    '/entries/ent_content_modeling?locale=en&include=related',
    '/globals/footer?locale=en',
    '/globals/footer?locale=de',
    '/menus/main?locale=en',
    '/menus/main?locale=de',
    '/redirects?locale=en',
    '/sitemap?locale=en',
    '/tree?locale=en',
    '/entries?type=post&limit=100',
    '/forms/contact?locale=en',
    '/sync?since=1',
  ];
  const pinned = () => [
    ...current
      .filter((p) => !p.startsWith('/sync'))
      .map((p) => `${p}${p.includes('?') ? '&' : '?'}cv=${pinnedAt}`),
    `/entries/by-path/no-such-page?locale=en&cv=${pinnedAt}`,
  ];

  /** Every warmed URL through `cache` equals Folio's answer (status and body, `cv` aside). */
  async function expectFresh(cache: CacheProcess, label: string): Promise<void> {
    for (const path of [...current, ...pinned()]) {
      const [through, direct] = [await read(cache.base, path), await read(origin, path)];
      expect(through.status, `${label} ${cache.base}${path}`).toBe(direct.status);
      const [x, y] = [comparable(through.body), comparable(direct.body)];
      expect(x === y, `${label} ${cache.base}${path} ${firstDifference(x, y)}`).toBe(true);
    }
  }

  /** A change, then its purges (every webhook delivery of it done), then 100 ms. */
  async function changed(change: () => Promise<unknown>): Promise<void> {
    const before = relay.purged;
    const t0 = performance.now();
    await change();
    await eventsDone();
    if (relay.purged > before) purgeMs.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }

  /** A change, then (once its purges landed, plus 100 ms) both caches agree with Folio on every URL. */
  async function step(label: string, change: () => Promise<unknown>): Promise<void> {
    await changed(change);
    await expectFresh(varnish, label);
    await expectFresh(nginx, label);
  }

  it('warms every URL through both caches; pinned ones and lists of 100 entries are cached', async () => {
    for (const cache of [varnish, nginx])
      for (const path of [...current, ...pinned()]) {
        const r = await read(cache.base, path);
        expect([200, 404], `${cache.base}${path}`).toContain(r.status);
      }
    // Varnish keeps both kinds; nginx the pinned ones, a 404 and a list of 100 entries through its default buffers.
    for (const path of ['/entries/by-path/about?locale=en', ...pinned()])
      expect((await read(varnish.base, path)).headers.get('x-cache'), path).toBe('HIT');
    for (const path of pinned())
      expect((await read(nginx.base, path)).headers.get('x-cache'), path).toBe('HIT');
    const list = await read(nginx.base, `/entries?type=post&limit=100&cv=${pinnedAt}`);
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body).items).toHaveLength(100);
    // No rate-limit budget of one client is stored for the next, nor any tag the client has no use for.
    expect(list.headers.get('ratelimit-remaining')).toBeNull();
    expect(
      (await read(varnish.base, '/entries/by-path/about?locale=en')).headers.get('surrogate-key'),
    ).toBeNull();
    await expectFresh(varnish, 'warm');
    await expectFresh(nginx, 'warm');
  });

  it('never hands a cached answer to another token, to no token, or a preview to anyone', async () => {
    for (const cache of [varnish, nginx]) {
      const path = `/entries/by-path/about?locale=en&cv=${pinnedAt}`;
      expect((await read(cache.base, path, null)).status).toBe(401);
      expect((await read(cache.base, path, TOKENS.otherSpace)).status).toBe(401);
      expect((await read(cache.base, path, 'folio_pub_NoSuchToken000000000000009')).status).toBe(401);
      for (let i = 0; i < 2; i++) {
        const draft = await read(cache.base, '/entries/by-path/about?locale=en&draft=1', PREVIEW);
        expect(draft.status).toBe(200);
        expect(draft.headers.get('x-cache') ?? 'MISS').toMatch(/MISS|BYPASS/);
      }
    }
  });

  it('is fresh after a rename, an unpublish, a hidden reference published and a menu edit', async () => {
    await step('rename', () => t.api('POST', '/entries/ent_about/rename', { slug: 'about-us' }));
    await step('unpublish', () => t.api('POST', '/entries/ent_getting_started/unpublish'));
    // content-modeling's `related` names it; it was hidden: now the included answer shows it.
    await step('reference', () => t.api('POST', '/entries/ent_localization_tips/publish'));
    const menu = (await t.api('GET', '/menus/main')).body.menu;
    const [first, ...rest] = menu.items;
    await step('menu', () =>
      t.api('PUT', '/menus/main', {
        name: menu.name,
        items: [{ ...first, label: { en: 'Start' } }, ...rest],
      }),
    );
    // No publish evicted a pinned answer.
    for (const path of pinned())
      expect((await read(varnish.base, path)).headers.get('x-cache'), `evicted: ${path}`).toBe('HIT');
  });

  it('a form that closes is served closed once its closing time passed, pinned or not', async () => {
    const form = (await t.api('GET', '/forms/contact')).body.form;
    const closesAt = new Date(Date.now() + 5000).toISOString();
    await changed(() =>
      t.api('PUT', '/forms/contact', { ...form, settings: { ...form.settings, closesAt } }),
    );
    pinnedAt = (await t.get('/status')).body.cv;
    const paths = ['/forms/contact?locale=en', `/forms/contact?locale=en&cv=${pinnedAt}`];
    for (const cache of [varnish, nginx])
      for (const path of paths)
        expect(JSON.parse((await read(cache.base, path)).body).form.status).toBe('open');
    await new Promise((r) => setTimeout(r, Date.parse(closesAt) - Date.now() + 1100));
    for (const cache of [varnish, nginx])
      for (const path of paths)
        expect(JSON.parse((await read(cache.base, path)).body).form.status, `${cache.base}${path}`).toBe(
          'closed',
        );
  });

  it('a revoked token reads nothing more through either cache, pinned answers included', async () => {
    const paths = ['/entries/by-path/?locale=en', `/entries/by-path/?locale=en&cv=${pinnedAt}`];
    for (const cache of [varnish, nginx])
      for (const path of paths) {
        await read(cache.base, path, OTHER);
        expect((await read(cache.base, path, OTHER)).status).toBe(200);
      }
    const tokens = (await t.api('GET', '/tokens')).body.tokens as { id: string; hint: string }[];
    const other = tokens.find((tk) => OTHER.startsWith(tk.hint.replace('…', '')));
    if (!other) throw new Error('the second public token is not listed');
    await step('token revoked', () => t.api('DELETE', `/tokens/${other.id}`));
    for (const cache of [varnish, nginx])
      for (const path of paths)
        expect((await read(cache.base, path, OTHER)).status, `${cache.base}${path}`).toBe(401);
    const ratio = counts.hit / Math.max(1, counts.hit + counts.miss);
    const sorted = [...purgeMs].sort((a, b) => a - b);
    console.log(
      `edge: hit ratio ${(ratio * 100).toFixed(0)} % over ${counts.hit + counts.miss} cache reads; ` +
        `change to purged p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms ` +
        `over ${sorted.length} changes`,
    );
  });
});
