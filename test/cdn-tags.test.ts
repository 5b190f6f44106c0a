// CDN integration: every current answer names what it depends on in its tag header (Surrogate-Key by default,
// CDN_TAG_HEADER picks), pinned ones tell CDNs they are immutable and carry no tag a publish sends, an answer
// showing a form ends at the form's next transition, and the webhooks carry the tags a change invalidates, so a
// receiver purging by them reaches exactly the answers that showed the old content. On both engines.
// (test/e2e/cdn.e2e.test.ts runs the same behind real nginx and Varnish.)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobRunner } from '../src/jobs/runner.js';
import { boundedTags, MAX_TAG_BYTES } from '../src/delivery/cache-headers.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';
import { overHttp, READ_PATHS } from './helpers/over-http.js';
import { type Received, WebhookReceiver } from './helpers/webhook-receiver.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const S = 'spc_test';

const tagsOf = (headers: Record<string, unknown>): string[] =>
  String(headers['surrogate-key'] ?? '').split(' ');

// Each engine, each way a hit is answered: before Fastify (fast hits, over HTTP) and through its pipeline.
const RUNS = ENGINES.flatMap((engine) => READ_PATHS.map((path) => ({ engine, path, way: path.name })));

describe.each(RUNS)('CDN tags on $engine, $way', ({ engine, path }) => {
  let t: ManagementApp;
  let runner: JobRunner;
  let receiver: WebhookReceiver;

  const read = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/${S}${url}`, headers: pub });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.headers as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await openManagementApp(engine, {
      worker: false,
      webhookAllowPrivate: true,
      rateLimitPerMinute: 100_000,
      fastHits: path.fastHits,
    });
    if (path.fastHits) await overHttp(t.app);
    runner = createJobRunner({ store: t.store, blobs: t.blobs, config: t.config }, { pollMs: 20 });
    runner.start();
  });
  afterAll(async () => {
    await runner.stop();
    await t.close();
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => receiver.close());

  const token = `${S}:token:`;
  it.each([
    ['/entries/by-path/about', [S, `${S}:entry:ent_about`]],
    ['/entries/ent_home', [S, `${S}:entry:ent_home`, `${S}:entry:ent_about`, `${S}:asset:ast_pic`]],
    ['/entries/ent_home?include=author', [`${S}:entry:ent_alice`, `${S}:form:contact`]],
    ['/globals/footer', [S, `${S}:global:footer`, `${S}:entry:ent_footer`]],
    ['/globals', [S, `${S}:globals`, `${S}:global:footer`, `${S}:entry:ent_footer`]],
    ['/entries?type=author', [S, `${S}:type:author`, `${S}:entry:ent_alice`, `${S}:entry:ent_bob`]],
    ['/entries', [S, `${S}:entries`, `${S}:entry:ent_home`]],
    ['/tree', [S, `${S}:tree:en`]],
    ['/tree?locale=de&depth=1', [S, `${S}:entries`]],
    ['/sitemap?locale=de', [S, `${S}:sitemap:de`]],
    ['/sitemap?types=page', [S, `${S}:entries`]],
    ['/lists/colors', [S, `${S}:list:colors`]],
    ['/menus/main', [S, `${S}:menu:main`]],
    ['/menus', [S, `${S}:menus`, `${S}:menu:main`]],
    ['/redirects', [S, `${S}:redirects`]],
    ['/forms/contact', [S, `${S}:form:contact`]],
    ['/sync', [S, `${S}:sync`]],
  ])(
    '%s names what it depends on, on a miss and on a hit, and the token that read it',
    async (url, expected) => {
      const miss = await read(url);
      expect(tagsOf(miss)).toEqual(expect.arrayContaining(expected));
      // One header by default (CDN_TAG_HEADER=surrogate-key), the token's tag last and once.
      expect(miss['cache-tag']).toBeUndefined();
      expect(tagsOf(miss).filter((tag) => tag.startsWith(token))).toHaveLength(1);
      const hit = await read(url);
      // The sitemap is streamed, never kept in Folio's own cache.
      if (!url.startsWith('/sitemap')) expect(hit['x-svc-cache']).toBe('HIT-L1');
      // A hit is the front door's when it is on (fast hits, over HTTP). Up to three more reads: a hit finding the
      // token's lookup dropped (the cv's first adoption, src/auth/token-cache.ts) is left to Fastify, rightly.
      const answered = t.app.folioEdge.front.answered;
      for (let i = 0; i < 3 && t.app.folioEdge.front.answered === answered; i++)
        expect((await read(url))['surrogate-key']).toBe(hit['surrogate-key']);
      const fast = path.fastHits && !url.startsWith('/sitemap');
      expect(t.app.folioEdge.front.answered - answered).toBe(fast ? 1 : 0);
      expect(hit['surrogate-key']).toBe(miss['surrogate-key']);
      // Another token's hit carries its own tag, not the first reader's.
      const other = await t.app.inject({
        method: 'GET',
        url: `/v1/${S}${url}`,
        headers: { authorization: `Bearer ${TOKENS.publicOrigins}` },
      });
      const otherTags = tagsOf(other.headers as Record<string, unknown>);
      expect(otherTags.filter((tag) => tag.startsWith(token))).toHaveLength(1);
      expect(otherTags.find((tag) => tag.startsWith(token))).not.toBe(
        tagsOf(miss).find((tag) => tag.startsWith(token)),
      );
    },
  );

  it('keeps what a shared cache must not store per client out of cacheable answers', async () => {
    const answer = await read('/entries/by-path/about');
    // A shared cache keys what it stores by these: one copy per token and origin.
    expect(answer.vary).toBe('Origin, Authorization');
    expect(answer['ratelimit-remaining']).toBeUndefined();
    // Never stored anywhere (a preview): its budget is the client's own.
    const draft = await t.app.inject({
      method: 'GET',
      url: `/v1/${S}/entries/by-path/about?draft=1`,
      headers: { authorization: `Bearer ${TOKENS.preview}` },
    });
    expect(draft.headers['cache-control']).toBe('private, no-store');
    expect(draft.headers['ratelimit-remaining']).toBeDefined();
    expect(draft.headers['surrogate-key']).toBeUndefined();
  });

  it('tells CDNs that pinned answers are immutable, tags them with the token only, and 404s alike', async () => {
    const cv = Number((await read('/entries/by-path/about'))['x-folio-cv']);
    const pinned = await read(`/entries/by-path/about?cv=${cv}`);
    expect(pinned['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned['cdn-cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned['surrogate-control']).toBe('max-age=31536000');
    expect(tagsOf(pinned).every((tag) => tag.startsWith(token))).toBe(true);
    const current = await read('/entries/by-path/about');
    expect(current['cdn-cache-control']).toBeUndefined();
    expect(current['cache-control']).toBe('public, max-age=10, stale-while-revalidate=60');
    for (let i = 0; i < 2; i++) {
      const gone = await t.app.inject({
        method: 'GET',
        url: `/v1/${S}/entries/by-path/no-such-page?cv=${cv}`,
        headers: pub,
      });
      expect(gone.statusCode).toBe(404);
      expect(gone.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const currentGone = await t.app.inject({
      method: 'GET',
      url: `/v1/${S}/entries/by-path/nope`,
      headers: pub,
    });
    expect(currentGone.headers['cache-control']).toBe('no-store');
  });

  it('keeps a pinned form with no opening or closing ahead immutable (spec 4.1), tagged by the form', async () => {
    const saved = await t.api('PUT', '/forms/contact', { name: 'Contact', fields: [], settings: {} });
    expect(saved.status).toBe(200);
    const pinned = await read(`/forms/contact?cv=${saved.body.cv as number}`);
    expect(pinned['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(tagsOf(pinned)).toContain(`${S}:form:contact`);
  });

  it('ends an answer showing a form at its next opening or closing, pinned or not, and never calls it immutable', async () => {
    const closesAt = new Date(Date.now() + 6_000).toISOString();
    const saved = await t.api('PUT', '/forms/contact', {
      name: 'Contact',
      fields: [],
      settings: { closesAt },
    });
    expect(saved.status).toBe(200);
    const cv = saved.body.cv as number;
    const maxAge = (header: unknown) => Number(/max-age=(\d+)/.exec(String(header))?.[1]);
    for (const url of ['/forms/contact', `/forms/contact?cv=${cv}`, `/entries/ent_home?cv=${cv}`]) {
      const answer = await read(url);
      expect(String(answer['cache-control']), url).not.toMatch(/immutable/);
      // Browsers and shared caches alike: no longer than until it closes.
      expect(maxAge(answer['cache-control']), url).toBeLessThanOrEqual(6);
      expect(maxAge(answer['surrogate-control']), url).toBeLessThanOrEqual(6);
      expect(answer['cache-control'], url).not.toMatch(/stale-while-revalidate/);
      expect(tagsOf(answer), url).toContain(`${S}:form:contact`);
    }
  });

  it('folds the tags of a long answer under the bound: by type, else to the space', () => {
    const entries = Array.from({ length: 100 }, (_, i) => `${S}:entry:ent_${String(i).padStart(20, '0')}`);
    const folded = boundedTags(S, { exact: entries, coarse: [`${S}:type:post`, `${S}:assets`] });
    expect(folded).toEqual([S, `${S}:type:post`, `${S}:assets`]);
    expect(boundedTags(S, { exact: entries })).toEqual([S]);
    expect(boundedTags(S, { exact: entries.slice(0, 3) })).toEqual([S, ...entries.slice(0, 3)]);
    expect(folded.join(' ').length).toBeLessThanOrEqual(MAX_TAG_BYTES);
  });

  it('sends token.revoked with the tag of what the token read', async () => {
    const hook = await t.api('POST', '/webhooks', { url: receiver.url, events: ['token.revoked'] });
    const made = await t.api('POST', '/tokens', { kind: 'public', name: 'to revoke' });
    expect(made.status).toBe(201);
    const id = made.body.token.id as string;
    expect((await t.api('DELETE', `/tokens/${id}`)).status).toBe(200);
    const got = await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).type === 'token.revoked'));
    const event = JSON.parse(got.find((x) => JSON.parse(x.body).type === 'token.revoked')!.body);
    expect(event.data).toEqual({ tokenId: id, keys: [`${S}:token:${id}`] });
    await t.api('DELETE', `/webhooks/${hook.body.webhook.id}`);
  });

  it('sends content.published with the tags that reach every response showing the old content', async () => {
    const hook = await t.api('POST', '/webhooks', { url: receiver.url, events: ['content.published'] });
    expect(hook.status).toBe(201);
    const aboutPage = tagsOf(await read('/entries/by-path/about'));
    const homePage = tagsOf(await read('/entries/ent_home'));
    const pages = tagsOf(await read('/entries?type=page'));
    const menu = tagsOf(await read('/menus/main'));
    const unrelated = tagsOf(await read('/entries/ent_alice'));

    await t.api('PATCH', '/entries/ent_about', { name: 'About us' });
    const published = await t.api('POST', '/entries/ent_about/publish');
    const isThis = (r: Received) => JSON.parse(r.body).data.cv === published.body.cv;
    const event = JSON.parse((await receiver.waitFor((r) => r.some(isThis))).find(isThis)!.body);
    expect(event.type).toBe('content.published');
    const keys = event.data.keys as string[];
    expect(keys).toEqual(
      expect.arrayContaining([`${S}:entry:ent_about`, `${S}:type:page`, `${S}:entries`, `${S}:sync`]),
    );
    // Pinned answers carry none of them (a publish never evicts what can never change).
    expect(keys.some((k) => k.startsWith(`${S}:token:`))).toBe(false);
    const hits = (tags: string[]) => tags.some((tag) => keys.includes(tag));
    // The page itself, a page linking to it, the list of its type: purged. Another author's page: not.
    expect(hits(aboutPage)).toBe(true);
    expect(hits(homePage)).toBe(true);
    expect(hits(pages)).toBe(true);
    expect(hits(unrelated.filter((tag) => tag !== S))).toBe(false);
    expect(menu).toContain(`${S}:menu:main`);
    await t.api('DELETE', `/webhooks/${hook.body.webhook.id}`);
  });

  it('names the menus and redirects a move changes', async () => {
    const hook = await t.api('POST', '/webhooks', { url: receiver.url, events: ['content.published'] });
    await t.api('PUT', '/menus/main', {
      name: 'Main',
      items: [{ label: { en: 'Hello' }, link: { kind: 'entry', entry: 'ent_post' }, children: [] }],
    });
    const moved = await t.api('POST', '/entries/ent_post/move', { parent: null });
    expect(moved.status).toBe(200);
    const isThis = (r: Received) => JSON.parse(r.body).data.cv === moved.body.cv;
    const event = JSON.parse((await receiver.waitFor((r) => r.some(isThis))).find(isThis)!.body);
    expect(event.data.keys).toEqual(
      expect.arrayContaining([`${S}:entry:ent_post`, `${S}:menu:main`, `${S}:menus`, `${S}:redirects`]),
    );
    await t.api('DELETE', `/webhooks/${hook.body.webhook.id}`);
  });
});
