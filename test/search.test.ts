import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { EmbeddingsConfig } from '../src/config/config.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { hasPendingJob } from '../src/jobs/outbox-repo.js';
import { embedderFor } from '../src/search/embedder.js';
import { forgetSearchIndex } from '../src/search/embeddings-repo.js';
import { indexSpace, queueStaleSearchIndexes } from '../src/search/indexer.js';
import { SEARCH_INDEX_JOB } from '../src/search/queue.js';
import { ExactVectorIndex } from '../src/search/vector-index.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { expectEnvelope } from './helpers/envelope.js';
import { drainJobs } from './helpers/jobs.js';
import { call, type Res } from './helpers/management.js';
import { startEmbeddingsServer } from './helpers/search.js';
import { tempDir } from './helpers/temp-dirs.js';

const PUB = 'folio_pub_SearchBehaviourToken00000001';
const PRV = 'folio_prv_SearchBehaviourToken00000002';
const MGT = 'folio_mgt_SearchBehaviourToken00000003';
const OFF = 'folio_pub_SearchBehaviourToken00000004';

/** A GET through inject, with the raw text beside the parsed body (for `expectEnvelope`). */
async function inject(app: FastifyInstance, url: string, token: string): Promise<Res & { text: string }> {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, text: res.body, body: res.json() };
}

const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
const entry = (
  id: string,
  type: string,
  slug: string,
  en: [string, string],
  de?: [string, string],
  extra = {},
) => ({
  id,
  type,
  name: en[0],
  slug,
  slugs: { de: `${slug}-de` },
  parent: null,
  position: 0,
  tags: [],
  published,
  fields: {
    title: { en: en[0], ...(de ? { de: de[0] } : {}) },
    body: { en: en[1], ...(de ? { de: de[1] } : {}) },
  },
  ...extra,
});

function bundle(spaceId: string, ai: boolean) {
  const fields = [
    { key: 'title', type: 'text', localized: true },
    { key: 'body', type: 'textarea', localized: true },
    { key: 'sections', type: 'blocks', blocks: ['para'] },
  ];
  return {
    format: 'folio-bundle@1',
    space: {
      id: spaceId,
      name: 'Search',
      ai,
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
      ],
    },
    tokens: ai
      ? [
          { kind: 'public', value: PUB },
          { kind: 'preview', value: PRV },
          { kind: 'management', value: MGT },
        ]
      : [{ kind: 'public', value: OFF }],
    types: [
      { key: 'page', kind: 'page', fields },
      { key: 'article', kind: 'collection', pages: true, fields },
      { key: 'para', kind: 'block', fields: [{ key: 'text', type: 'textarea', localized: true }] },
      { key: 'footer', kind: 'global', fields: [{ key: 'title', type: 'text', localized: true }] },
    ],
    entries: [
      entry(
        'ent_returns',
        'page',
        'returns',
        [
          'Returns and refunds',
          'You can send items back within 30 days and we pay the full price back to your card.',
        ],
        [
          'Rücksendungen',
          'Sie können Artikel innerhalb von 30 Tagen zurückschicken und erhalten den vollen Preis zurück.',
        ],
      ),
      entry(
        'ent_shipping',
        'article',
        'shipping',
        ['Delivery times', 'Parcels arrive within two to four working days after your order.'],
        ['Lieferzeiten', 'Pakete kommen zwei bis vier Werktage nach Ihrer Bestellung bei Ihnen an.'],
      ),
      entry(
        'ent_account',
        'page',
        'account',
        ['Your account', 'Manage your profile and settings.'],
        undefined,
        {
          fields: {
            title: { en: 'Your account' },
            body: { en: 'Manage your profile and settings.' },
            sections: [
              {
                id: 'blk_pw',
                type: 'para',
                fields: {
                  text: {
                    en: 'Forgot your password? Use the reset link on the sign-in page to choose a new one.',
                  },
                },
              },
            ],
          },
        },
      ),
      entry('ent_bakery', 'article', 'bakery', [
        'Our bakery',
        'Fresh sourdough bread and croissants every morning.',
      ]),
      {
        ...entry('ent_draft', 'page', 'draft', [
          'Unicorn launch',
          'A secret unicorn rocket launch next spring.',
        ]),
        published: null,
      },
      {
        id: 'ent_footer',
        type: 'footer',
        name: 'Footer',
        slug: 'footer',
        parent: null,
        position: 0,
        tags: [],
        published,
        fields: { title: { en: 'Money back guarantee footer' } },
      },
    ],
  };
}

describe.each(ENGINES)('semantic search on %s', (engine) => {
  let env: TestEnv;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let runner: JobRunner;
  const get = (url: string, token = PUB, space = 'spc_search', on = app) =>
    inject(on, `/v1/${space}${url}`, token);
  const api = (method: string, path: string, body?: unknown): Promise<Res> =>
    call(app, method, `/v1/spaces/spc_search${path}`, { authorization: `Bearer ${MGT}` }, body);
  const ids = (res: Res): string[] => res.body.items.map((i: { entry: { id: string } }) => i.entry.id);
  const search = (q: string, more = '') => get(`/search?q=${encodeURIComponent(q)}${more}`);

  beforeAll(async () => {
    env = await openTestEnv(engine);
    const dir = tempDir('folio-search-');
    await importBundle(env.store, env.blobs, bundle('spc_search', true), { baseDir: dir });
    await importBundle(env.store, env.blobs, bundle('spc_off', false), { baseDir: dir });
    app = await buildApp({ ...env, config: { ...env.config, worker: false } });
    runner = createJobRunner({ store: env.store, blobs: env.blobs, config: env.config });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await env.close();
  });

  it('answers 404 not_found in a space whose AI is off, and /status has no search member there', async () => {
    await drainJobs(env.store, runner);
    expectEnvelope(await get('/search?q=refund', OFF, 'spc_off'), 'not_found');
    expect((await get('/status', OFF, 'spc_off')).body.search).toBeUndefined();
    const rows = await env.store.db
      .selectFrom('search_embeddings')
      .select('seq')
      .where('space_id', '=', 'spc_off')
      .execute();
    expect(rows).toEqual([]);
  });

  it('is complete after the job runner indexed the import, and then cached', async () => {
    const status = await get('/status');
    expect(status.body.search).toMatchObject({ complete: true, indexedCv: status.body.cv });
    const first = await search('get my money back');
    expect(first.status).toBe(200);
    expect(first.headers['x-folio-search-index']).toBe('complete');
    expect(ids(first)[0]).toBe('ent_returns');
    expect(first.body.items[0].highlight).toContain('30 days');
    expect(first.body.cv).toBe(status.body.cv);
    expect(first.body.items[0].score).toBeGreaterThan(0);
    expect((await search('get my money back')).headers['x-svc-cache']).toBe('HIT-L1');
  });

  it('never finds globals or drafts, and refuses draft and release searches', async () => {
    const res = await search('unicorn rocket launch', '&limit=20');
    expect(ids(res)).not.toContain('ent_draft');
    expect(ids(res)).not.toContain('ent_footer');
    expect(
      (await search('money back guarantee', '&limit=20')).body.items.map(
        (i: { entry: { type: string } }) => i.entry.type,
      ),
    ).not.toContain('footer');
    expectEnvelope(await get('/search?q=unicorn&draft=1', PRV), 'invalid_query');
    // A public token asking for drafts is refused before anything is searched (spec 5 rule 2).
    expect((await get('/search?q=unicorn&draft=1')).status).toBe(403);
  });

  it('finds text that is only in a block, by meaning', async () => {
    expect(ids(await search('I cannot remember my login secret')).slice(0, 2)).toContain('ent_account');
  });

  it('scans the index in slices, so a large index lets other requests run', async () => {
    const sliced = vi.spyOn(ExactVectorIndex.prototype, 'nearestSliced');
    const whole = vi.spyOn(ExactVectorIndex.prototype, 'nearest');
    try {
      expect(ids(await search('where is my parcel', '&limit=3'))).not.toHaveLength(0);
      expect(sliced).toHaveBeenCalledTimes(1);
      expect(whole).not.toHaveBeenCalled();
    } finally {
      sliced.mockRestore();
      whole.mockRestore();
    }
  });

  it('finds a word that is only in a block with the list full text too, published and in drafts', async () => {
    const listed = await get('/entries?search=sign-in');
    expect(listed.body.items.map((e: { id: string }) => e.id)).toEqual(['ent_account']);
    const drafts = await get('/entries?search=sign-in&draft=1', PRV);
    expect(drafts.body.items.map((e: { id: string }) => e.id)).toEqual(['ent_account']);
  });

  it('filters by locale and type', async () => {
    const de = await search('Wann kommt meine Bestellung an', '&locale=de');
    expect(ids(de)[0]).toBe('ent_shipping');
    expect(de.body.items[0].entry.locale).toBe('de');
    expect(de.body.items[0].highlight).toContain('Werktage');
    const articles = await search('money back for items I return', '&type=article&limit=20');
    expect(new Set(articles.body.items.map((i: { entry: { type: string } }) => i.entry.type))).toEqual(
      new Set(['article']),
    );
    expectEnvelope(await search('x', '&type=footer'), 'invalid_query');
    expectEnvelope(await search('x', '&type=nope'), 'invalid_query');
  });

  it('answers 400 to bad input with the parameter named', async () => {
    for (const url of [
      '/search',
      '/search?q=',
      '/search?q=%20%20',
      `/search?q=${'a'.repeat(501)}`,
      '/search?q=a&limit=0',
      '/search?q=a&limit=21',
      '/search?q=a&limit=x',
      '/search?q=a&q=b',
      '/search?q=a&sort=name',
    ]) {
      const res = await get(url);
      expectEnvelope(res, 'invalid_query', url);
    }
    expect((await search('a'.repeat(500))).status).toBe(200);
  });

  it('re-indexes after publish, unpublish and delete, and a pinned cv keeps what it saw', async () => {
    const before = (await get('/status')).body.cv as number;
    const patched = await api('PATCH', '/entries/ent_shipping', {
      fields: {
        title: { en: 'Delivery times', de: 'Lieferzeiten' },
        body: {
          en: 'We now deliver every order by drone within one hour.',
          de: 'Wir liefern jetzt per Drohne.',
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await api('POST', '/entries/ent_shipping/publish')).status).toBe(200);
    const afterPublish = (await get('/status')).body;
    expect(afterPublish.search.complete).toBe(false);
    // Before the runner caught up the answer is not kept anywhere: it will improve.
    const early = await search('flying robot brings my parcel');
    expect(early.headers['x-folio-search-index']).toBe('indexing');
    expect(early.headers['cache-control']).toBe('no-store');
    expect((await search('flying robot brings my parcel')).headers['x-svc-cache']).toBe('MISS');
    await drainJobs(env.store, runner);
    expect((await get('/status')).body.search.complete).toBe(true);
    const now = await search('flying robot brings my parcel');
    expect(ids(now)[0]).toBe('ent_shipping');
    expect(now.body.items[0].highlight).toContain('drone');
    const pinned = await search('flying robot brings my parcel', `&cv=${before}`);
    expect(pinned.body.cv).toBe(before);
    expect(
      pinned.body.items.find((i: { entry: { id: string } }) => i.entry.id === 'ent_shipping')?.highlight,
    ).toContain('two to four');

    expect((await api('POST', '/entries/ent_returns/unpublish')).status).toBe(200);
    expect((await api('DELETE', '/entries/ent_account')).status).toBe(200);
    await drainJobs(env.store, runner);
    const gone = await search('get my money back', '&limit=20');
    expect(ids(gone)).not.toContain('ent_returns');
    expect(ids(await search('I cannot remember my login secret', '&limit=20'))).not.toContain('ent_account');
    expect(ids(await search('get my money back', `&cv=${before}`))[0]).toBe('ent_returns');
  });

  it('answers 503 unavailable, quickly, when the provider does not answer, and works again when it does', async () => {
    const hanging = await startEmbeddingsServer('hang');
    const slow: EmbeddingsConfig = {
      provider: 'http',
      url: hanging.url,
      model: 'toy',
      apiKey: null,
      timeoutMs: 300,
    };
    const slowApp = await buildApp({ ...env, config: { ...env.config, worker: false, embeddings: slow } });
    try {
      const started = Date.now();
      const res = await get('/search?q=anything', PUB, 'spc_search', slowApp);
      expectEnvelope(res, 'unavailable');
      expect(Date.now() - started).toBeLessThan(3000);
      const down: EmbeddingsConfig = {
        provider: 'http',
        url: 'http://127.0.0.1:9/v1/embeddings',
        model: 'toy',
        apiKey: null,
        timeoutMs: 300,
      };
      const downApp = await buildApp({ ...env, config: { ...env.config, worker: false, embeddings: down } });
      expectEnvelope(await get('/search?q=anything', PUB, 'spc_search', downApp), 'unavailable');
      await downApp.close();
    } finally {
      await slowApp.close();
      await hanging.close();
    }
  });

  it('hands a long indexing job over to a new job, which finishes it', async () => {
    await forgetSearchIndex(env.store.db, 'spc_search');
    let t = 0;
    const clock = () => (t += 30_000);
    const embedder = embedderFor(env.config.embeddings);
    expect(await indexSpace(env.store, embedder, 'spc_search', clock)).toBe('more');
    expect(await hasPendingJob(env.store.db, 'spc_search', SEARCH_INDEX_JOB)).toBe(true);
    expect((await get('/status')).body.search.complete).toBe(false);
    await drainJobs(env.store, runner);
    expect((await get('/status')).body.search.complete).toBe(true);
    expect(ids(await search('flying robot brings my parcel'))[0]).toBe('ent_shipping');
  });

  it('re-embeds everything when the model changes, with the OpenAI-compatible provider', async () => {
    const server = await startEmbeddingsServer('ok');
    const http: EmbeddingsConfig = {
      provider: 'http',
      url: server.url,
      model: 'toy-bow',
      apiKey: 'sk-test',
      timeoutMs: 5000,
    };
    const config = { ...env.config, worker: false, embeddings: http };
    const httpApp = await buildApp({ ...env, config });
    const httpRunner = createJobRunner({ store: env.store, blobs: env.blobs, config });
    try {
      const stale = await call(httpApp, 'GET', '/v1/spc_search/status', { authorization: `Bearer ${PUB}` });
      expect(stale.body.search).toMatchObject({ model: 'http:toy-bow', complete: false });
      // A runner starting with another model queues the re-embedding at once (once: not while one waits).
      expect(await queueStaleSearchIndexes(env.store, 'http:toy-bow')).toEqual(['spc_search']);
      expect(await queueStaleSearchIndexes(env.store, 'http:toy-bow')).toEqual([]);
      await drainJobs(env.store, httpRunner);
      expect(await queueStaleSearchIndexes(env.store, 'http:toy-bow')).toEqual([]);
      const models = await env.store.db
        .selectFrom('search_embeddings')
        .select('model')
        .where('space_id', '=', 'spc_search')
        .distinct()
        .execute();
      expect(models.map((m) => m.model)).toEqual(['http:toy-bow']);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests[0]).toMatchObject({ model: 'toy-bow', authorization: 'Bearer sk-test' });
      const res = await call(httpApp, 'GET', '/v1/spc_search/search?q=sourdough%20croissants', {
        authorization: `Bearer ${PUB}`,
      });
      expect(res.headers['x-folio-search-index']).toBe('complete');
      expect(res.body.items[0].entry.id).toBe('ent_bakery');
    } finally {
      await httpApp.close();
      await server.close();
    }
  });
});
