// CDN integration (issue 16 item 2): every cacheable response names what it depends on in Surrogate-Key and
// Cache-Tag, pinned responses tell CDNs they are immutable, and the webhooks carry the tags a change invalidates,
// so a receiver purging by them reaches exactly the responses that showed the old content. On both engines.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';
import { type Received, WebhookReceiver } from './helpers/webhook-receiver.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const S = 'spc_test';

const tagsOf = (headers: Record<string, unknown>): string[] =>
  String(headers['surrogate-key'] ?? '').split(' ');

describe.each(ENGINES)('CDN tags on %s (issue 16)', (engine) => {
  let t: ManagementApp;
  let runner: JobRunner;
  let receiver: WebhookReceiver;

  const read = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/${S}${url}`, headers: pub });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.headers as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false, webhookAllowPrivate: true });
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

  it.each([
    ['/entries/by-path/about', [S, `${S}:entry:ent_about`]],
    ['/entries/ent_home', [S, `${S}:entry:ent_home`, `${S}:entry:ent_about`, `${S}:asset:ast_pic`]],
    ['/entries/ent_home?include=author', [`${S}:entry:ent_alice`]],
    ['/globals/footer', [S, `${S}:global:footer`, `${S}:entry:ent_footer`]],
    ['/globals', [S, `${S}:globals`, `${S}:global:footer`, `${S}:entry:ent_footer`]],
    ['/entries?type=author', [S, `${S}:type:author`, `${S}:entry:ent_alice`, `${S}:entry:ent_bob`]],
    ['/entries', [S, `${S}:entries`, `${S}:entry:ent_home`]],
    ['/tree', [S, `${S}:entries`]],
    ['/sitemap', [S, `${S}:entries`]],
    ['/lists/colors', [S, `${S}:list:colors`]],
    ['/menus/main', [S, `${S}:menu:main`]],
    ['/menus', [S, `${S}:menus`, `${S}:menu:main`]],
    ['/redirects', [S, `${S}:redirects`]],
    ['/forms/contact', [S, `${S}:form:contact`]],
    ['/sync', [S]],
  ])('%s names what it depends on, on a miss and on a hit', async (url, expected) => {
    const miss = await read(url);
    expect(tagsOf(miss)).toEqual(expect.arrayContaining(expected));
    expect(String(miss['cache-tag']).split(',').sort()).toEqual(tagsOf(miss).sort());
    const hit = await read(url);
    expect(hit['surrogate-key']).toBe(miss['surrogate-key']);
  });

  it('tells CDNs that pinned responses are immutable, and nothing more for current ones', async () => {
    const cv = Number((await read('/entries/ent_home'))['x-folio-cv']);
    const pinned = await read(`/entries/ent_home?cv=${cv}`);
    expect(pinned['cdn-cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned['surrogate-control']).toBe('max-age=31536000');
    const current = await read('/entries/ent_home');
    expect(current['cdn-cache-control']).toBeUndefined();
    expect(current['cache-control']).toBe('public, max-age=10, stale-while-revalidate=60');
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
    expect(keys).toEqual(expect.arrayContaining([`${S}:entry:ent_about`, `${S}:type:page`, `${S}:entries`]));
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
