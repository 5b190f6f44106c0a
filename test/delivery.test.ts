import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEntries, saveDraft } from '../src/content/publish-entries.js';
import { ENGINES } from './helpers/engines.js';
import { openTestApp, type TestApp } from './helpers/app.js';
import { SITE_ORIGIN, TOKENS } from './helpers/fixture.js';

const base = '/v1/spc_test';
const pub = { authorization: `Bearer ${TOKENS.public}` };
const prv = { authorization: `Bearer ${TOKENS.preview}` };

describe.each(ENGINES)('delivery on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(engine);
  });
  afterAll(async () => t.close());

  describe('entries by path (spec 4.2)', () => {
    it('serves the home page at / and by an encoded slash', async () => {
      for (const url of [`${base}/entries/by-path/`, `${base}/entries/by-path/%2F`]) {
        const r = await t.get(url, pub);
        expect(r.status).toBe(200);
        expect(r.body.entry.id).toBe('ent_home');
        expect(r.body.entry.path).toBe('/');
        expect(r.body.cv).toBe(1);
      }
    });

    it('finds localized paths per locale and the folder start page', async () => {
      expect((await t.get(`${base}/entries/by-path/ueber-uns?locale=de`, pub)).body.entry.id).toBe(
        'ent_about',
      );
      expect((await t.get(`${base}/entries/by-path/about?locale=de`, pub)).status).toBe(404);
      // de-ch has no slug of its own: it falls back to de's.
      const dech = await t.get(`${base}/entries/by-path/ueber-uns?locale=de-ch`, pub);
      expect(dech.body.entry.path).toBe('/ueber-uns');
      expect((await t.get(`${base}/entries/by-path/blog`, pub)).body.entry.id).toBe('ent_blogstart');
      const post = await t.get(`${base}/entries/by-path/blog/hallo?locale=de`, pub);
      expect(post.body.entry).toMatchObject({
        id: 'ent_post',
        slug: 'hallo',
        path: '/blog/hallo',
        parentId: 'ent_blog',
      });
      expect(post.body.entry.alternates).toEqual({
        en: '/blog/hello',
        de: '/blog/hallo',
        'de-ch': '/blog/hallo',
      });
    });

    it('ignores letter case and a trailing slash', async () => {
      expect((await t.get(`${base}/entries/by-path/Blog/Hello/`, pub)).body.entry.id).toBe('ent_post');
    });

    it('answers 404 not_found for unknown paths, globals, and never-published pages', async () => {
      for (const path of ['nope', '@footer', 'footer', 'draft-only']) {
        const r = await t.get(`${base}/entries/by-path/${path}`, pub);
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe('not_found');
      }
    });
  });

  describe('localization (spec 1.3, 2.2)', () => {
    it('falls back along the chain to the default locale', async () => {
      const title = async (locale: string) =>
        (await t.get(`${base}/entries/ent_home?locale=${locale}`, pub)).body.entry.content.fields.title;
      expect(await title('en')).toBe('Welcome');
      expect(await title('de')).toBe('Willkommen');
      expect(await title('de-ch')).toBe('Grüezi');
      const post = await t.get(`${base}/entries/ent_blogstart?locale=de-ch`, pub);
      expect(post.body.entry.content.fields.title).toBe('Blog');
    });

    it('translates dictionary fields per key', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=de-ch`, pub);
      expect(r.body.entry.content.fields.labels).toEqual({ readMore: 'Weiterlesen', back: 'Back' });
    });

    it('resolves block trees in the locale', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=de`, pub);
      const [hero] = r.body.entry.content.fields.blocks;
      expect(hero).toMatchObject({ id: 'blk_hero1', type: 'hero', fields: { heading: 'Hallo' } });
      expect(r.body.entry.content).toMatchObject({ type: 'page', id: 'blk_home' });
    });

    it('rejects an unknown locale with 400 naming the parameter', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=fr`, pub);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_query', details: { parameter: 'locale' } });
    });
  });

  describe('assets, links and includes (spec 2.2–2.4)', () => {
    it('expands asset fields with url, size, dimensions, focal, alt and the crop', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=de`, pub);
      const image = r.body.entry.content.fields.blocks[0].fields.image;
      expect(image).toMatchObject({
        asset: 'ast_pic',
        filename: 'pic.png',
        mime: 'image/png',
        width: 200,
        height: 200,
        crop: { x: 0.5, y: 0, width: 0.5, height: 1 },
        focal: { x: 0, y: 0.5 },
        alt: 'Ein Bild',
        color: '#c82828',
      });
      expect(image.size).toBeGreaterThan(0);
      // spec 2.3 rule 2: a cropped usage's url carries the crop, signed.
      expect(image.url).toMatch(
        /^http:\/\/folio\.test\/v1\/spc_test\/assets\/ast_pic\/pic\.png\?crop=0\.5,0,0\.5,1&sig=[\w-]{22}$/,
      );
      const seo = r.body.entry.content.fields.seo;
      expect(seo.image).toMatchObject({ width: 400, height: 200, focal: { x: 0.25, y: 0.5 } });
      const file = await t.app.inject({ method: 'GET', url: '/v1/spc_test/assets/ast_pic/pic.png' });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
    });

    it('puts entry links from link fields and rich text into included.links with localized paths', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=de`, pub);
      expect(r.body.included.links).toEqual({
        ent_about: { id: 'ent_about', type: 'page', name: 'About', path: '/ueber-uns' },
        ent_post: { id: 'ent_post', type: 'page', name: 'Hello', path: '/blog/hallo' },
      });
      expect(r.body.entry.content.fields.cta).toEqual({ kind: 'entry', entry: 'ent_post' });
    });

    it('delivers only visible references and embeds included entries to any depth, deduplicated', async () => {
      const plain = await t.get(`${base}/entries/ent_home`, pub);
      expect(plain.body.entry.content.fields.related).toEqual(['ent_about']);
      expect(plain.body.included.entries).toEqual([]);
      const r = await t.get(`${base}/entries/ent_home?include=author,friend`, pub);
      expect(r.body.entry.content.fields.author).toBe('ent_alice');
      const ids = r.body.included.entries.map((e: { id: string }) => e.id);
      // alice → friend bob → friend alice again: each once.
      expect(ids.sort()).toEqual(['ent_alice', 'ent_bob']);
      const alice = r.body.included.entries.find((e: { id: string }) => e.id === 'ent_alice');
      expect(alice.path).toBeNull();
      expect(alice.content.fields.avatar.asset).toBe('ast_pic');
    });

    it('returns only the requested root fields', async () => {
      const r = await t.get(`${base}/entries/ent_home?fields=title,seo`, pub);
      expect(Object.keys(r.body.entry.content.fields).sort()).toEqual(['seo', 'title']);
      const bad = await t.get(`${base}/entries/ent_home?fields=nope`, pub);
      expect(bad.status).toBe(400);
      expect((await t.get(`${base}/entries/ent_home?include=title`, pub)).status).toBe(400);
    });

    it('delivers form fields with the form in the entry locale (spec 2.9)', async () => {
      const r = await t.get(`${base}/entries/ent_home?locale=de`, pub);
      expect(r.body.entry.content.fields.contact).toMatchObject({
        form: 'contact',
        definition: { key: 'contact', locale: 'de', status: 'open' },
      });
    });
  });

  describe('globals', () => {
    it('serves one global with path @key', async () => {
      const r = await t.get(`${base}/globals/footer?locale=de`, pub);
      expect(r.status).toBe(200);
      expect(r.body.entry).toMatchObject({
        id: 'ent_footer',
        path: '@footer',
        content: { fields: { copyright: '© Test DE' } },
      });
    });

    it('serves several by keys, all published ones without keys, and checks each key', async () => {
      const all = await t.get(`${base}/globals`, pub);
      expect(Object.keys(all.body.globals)).toEqual(['footer']);
      expect((await t.get(`${base}/globals?keys=footer`, pub)).body.globals.footer.id).toBe('ent_footer');
      expect((await t.get(`${base}/globals?keys=footer,banner`, pub)).status).toBe(404);
      expect((await t.get(`${base}/globals?keys=footer,nope`, pub)).status).toBe(404);
      const many = Array.from({ length: 21 }, (_, i) => `g${i}`).join(',');
      expect((await t.get(`${base}/globals?keys=${many}`, pub)).body.error.code).toBe('invalid_query');
      expect((await t.get(`${base}/globals/page`, pub)).status).toBe(404);
    });
  });

  describe('authentication (spec 5)', () => {
    it('accepts a public token by header or query and rejects bad ones with 401', async () => {
      expect((await t.get(`${base}/entries/ent_home?token=${TOKENS.public}`)).status).toBe(200);
      for (const headers of [
        {},
        { authorization: 'Bearer folio_pub_nope' },
        { authorization: 'Basic abc' },
      ]) {
        const r = await t.get(`${base}/entries/ent_home`, headers);
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('unauthorized');
      }
      // A token of another space, a management token, a preview token in the URL.
      expect((await t.get(`${base}/status?token=${TOKENS.otherSpace}`)).status).toBe(401);
      expect((await t.get(`${base}/status`, { authorization: `Bearer ${TOKENS.management}` })).status).toBe(
        401,
      );
      expect((await t.get(`${base}/status?token=${TOKENS.preview}`)).status).toBe(401);
    });

    it('restricts origins with 403 and answers CORS for allowed ones', async () => {
      const token = { authorization: `Bearer ${TOKENS.publicOrigins}` };
      const ok = await t.get(`${base}/status`, { ...token, origin: SITE_ORIGIN });
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe(SITE_ORIGIN);
      // A browser script may read what the API tells it besides the body: the cv, cache layer, ETag and limits.
      const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
      for (const name of ['x-folio-cv', 'x-svc-cache', 'etag', 'retry-after', 'ratelimit-remaining'])
        expect(exposed).toContain(name);
      const bad = await t.get(`${base}/status`, { ...token, origin: 'https://evil.example' });
      expect(bad.status).toBe(403);
      expect(bad.body.error.code).toBe('forbidden_origin');
      // Reads are decided by Origin alone, which their answers vary on (a shared cache keys by it); a Referer
      // decides form posts only (test/edges.test.ts).
      const referer = await t.get(`${base}/status`, { ...token, referer: 'https://evil.example/page' });
      expect(referer.status).toBe(200);
      // Server-side requests carry no origin.
      expect((await t.get(`${base}/status`, token)).status).toBe(200);
      const open = await t.get(`${base}/status`, { ...pub, origin: 'https://any.example' });
      expect(open.headers['access-control-allow-origin']).toBe('*');
      const pre = await t.app.inject({
        method: 'OPTIONS',
        url: `${base}/entries/ent_home`,
        headers: { origin: SITE_ORIGIN },
      });
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-headers']).toContain('Authorization');
    });

    it('gives drafts and releases to preview tokens only (403 for public)', async () => {
      for (const q of ['draft=1', 'release=rel_next']) {
        const r = await t.get(`${base}/entries/ent_home?${q}`, pub);
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('preview_token_required');
      }
      const draft = await t.get(`${base}/entries/by-path/about?draft=1`, prv);
      expect(draft.body.entry.content.fields.title).toBe('About (draft)');
      expect(draft.headers['cache-control']).toBe('private, no-store');
      const onlyDraft = await t.get(`${base}/entries/by-path/draft-only?draft=1`, prv);
      expect(onlyDraft.body.entry.id).toBe('ent_draftonly');
      const release = await t.get(`${base}/entries/ent_home?release=rel_next`, prv);
      expect(release.body.entry.content.fields.title).toBe('Welcome (release)');
      expect(
        (await t.get(`${base}/entries/ent_about?release=rel_next`, prv)).body.entry.content.fields.title,
      ).toBe('About');
      expect((await t.get(`${base}/entries/ent_home?release=rel_nope`, prv)).status).toBe(404);
      // Preview tokens read published content too.
      expect((await t.get(`${base}/entries/ent_about`, prv)).body.entry.content.fields.title).toBe('About');
    });
  });

  describe('status and errors (spec 4.2, 7)', () => {
    it('reports the space, its cv and locales', async () => {
      const r = await t.get(`${base}/status`, pub);
      expect(r.body).toMatchObject({ spaceId: 'spc_test', cv: expect.any(Number), defaultLocale: 'en' });
      expect(r.body.locales).toEqual([
        { code: 'en', default: true, fallbacks: [] },
        { code: 'de', default: false, fallbacks: [] },
        { code: 'de-ch', default: false, fallbacks: ['de'] },
      ]);
    });

    it('answers unknown routes, parameters and bad values with the 7.1 envelope', async () => {
      const cases: [string, number, string][] = [
        [`${base}/nothing-here`, 404, 'not_found'],
        [`/nowhere`, 404, 'not_found'],
        [`${base}/entries/ent_home?bogus=1`, 400, 'invalid_query'],
        [`${base}/entries/ent_home?cv=abc`, 400, 'invalid_query'],
        [`${base}/entries/ent_home?cv=1&cv=2`, 400, 'invalid_query'],
        [`${base}/entries/ent_home?draft=maybe`, 400, 'invalid_query'],
        [`${base}/entries/ent_nope`, 404, 'not_found'],
      ];
      for (const [url, status, code] of cases) {
        const r = await t.get(url, pub);
        expect([url, r.status, r.body.error?.code]).toEqual([url, status, code]);
        expect(typeof r.body.error.message).toBe('string');
      }
    });
  });

  describe('the published log: cv pinning (spec 4.1, 9)', () => {
    it('keeps serving old content at a pinned cv after a later publish', async () => {
      const before = await t.get(`${base}/status`, pub);
      const oldCv: number = before.body.cv;
      await saveDraft(t.store, 'spc_test', 'ent_post', { title: { en: 'Hello again' } });
      // Saving a draft changes nothing delivered.
      expect((await t.get(`${base}/entries/ent_post`, pub)).body.entry.content.fields.title).toBe(
        'Hello world',
      );
      const newCv = await publishEntries(t.store, 'spc_test', ['ent_post']);
      expect(newCv).toBe(oldCv + 1);
      const current = await t.get(`${base}/entries/ent_post`, pub);
      expect(current.body.cv).toBe(newCv);
      expect(current.body.entry.content.fields.title).toBe('Hello again');
      const pinned = await t.get(`${base}/entries/ent_post?cv=${oldCv}`, pub);
      expect(pinned.body.entry.content.fields.title).toBe('Hello world');
      expect(pinned.body.cv).toBe(oldCv);
      expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const ahead = await t.get(`${base}/entries/ent_post?cv=${newCv + 1}`, pub);
      expect(ahead.status).toBe(400);
      expect(ahead.body.error.details.parameter).toBe('cv');
    });

    it('moves a folder: descendants get new paths, pinned cv keeps the old ones', async () => {
      const { body } = await t.get(`${base}/status`, pub);
      const { updateEntryState } = await import('../src/store/authoring-repo.js');
      await updateEntryState(t.store.db, 'spc_test', 'ent_blog', {
        slug: 'news',
        updatedAt: new Date().toISOString(),
      });
      await publishEntries(t.store, 'spc_test', ['ent_blog']);
      expect((await t.get(`${base}/entries/by-path/news/hello`, pub)).body.entry.id).toBe('ent_post');
      expect((await t.get(`${base}/entries/by-path/blog/hello`, pub)).status).toBe(404);
      expect((await t.get(`${base}/entries/by-path/blog/hello?cv=${body.cv}`, pub)).body.entry.id).toBe(
        'ent_post',
      );
    });

    it('answers 410 cv_expired below the kept history', async () => {
      const { prunePublished } = await import('../src/content/publish-log.js');
      const { body } = await t.get(`${base}/status`, pub);
      await t.store.db
        .transaction()
        .execute((tx) => prunePublished(tx, t.store.dialect, 'spc_test', body.cv));
      const r = await t.get(`${base}/entries/ent_post?cv=${body.cv - 1}`, pub);
      expect(r.status).toBe(410);
      expect(r.body.error).toMatchObject({ code: 'cv_expired', details: { oldestCv: body.cv } });
      expect((await t.get(`${base}/entries/ent_post?cv=${body.cv}`, pub)).status).toBe(200);
    });
  });
});
