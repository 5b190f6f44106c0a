import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { call, type ManagementApp, openManagementApp } from './helpers/management.js';

describe.each(ENGINES)('the management API on %s (spec 4.5)', (engine) => {
  let t: ManagementApp;
  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
  });
  afterAll(async () => t.close());

  const status = async () => (await t.get('/status')).body.cv as number;

  it('takes management tokens of the space only, and is never cached', async () => {
    const url = '/v1/spaces/spc_test/entries';
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, 'unauthorized'],
      [{ authorization: `Bearer ${TOKENS.otherSpace}` }, 401, 'unauthorized'],
      [{ authorization: `Bearer ${TOKENS.public}` }, 403, 'forbidden'],
      [{ authorization: 'Bearer folio_mgt_nope' }, 401, 'unauthorized'],
    ];
    for (const [headers, code, error] of cases) {
      const r = await call(t.app, 'GET', url, headers);
      expect([r.status, r.body.error.code]).toEqual([code, error]);
    }
    // Authentication comes before the body is even looked at.
    const unauth = await call(t.app, 'POST', url, {}, { nonsense: true });
    expect(unauth.status).toBe(401);
    const ok = await t.api('GET', '/entries');
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body.entries.map((e: { id: string }) => e.id)).toContain('ent_about');
    expect(
      (
        await call(t.app, 'GET', '/v1/spaces/spc_nope/entries', {
          authorization: `Bearer ${TOKENS.management}`,
        })
      ).status,
    ).toBe(401);
  });

  it('creates a draft, saves it, publishes it (one cv bump) and unpublishes it', async () => {
    const cv0 = await status();
    const created = await t.api('POST', '/entries', {
      type: 'page',
      name: 'Pricing',
      slug: 'pricing',
      slugs: { de: 'preise' },
      tags: ['sales'],
      fields: { title: { en: 'Pricing', de: 'Preise' } },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.entry;
    expect(created.body.entry).toMatchObject({
      id: expect.stringMatching(/^ent_/),
      status: 'draft',
      position: 4,
    });
    expect(await status()).toBe(cv0);
    expect((await t.get(`/entries/${id}`)).status).toBe(404);

    const published = await t.api('POST', `/entries/${id}/publish`);
    expect(published.body).toMatchObject({ cv: cv0 + 1, entry: { status: 'published' } });
    expect((await t.get('/entries/by-path/preise?locale=de')).body.entry.content.fields.title).toBe('Preise');

    const saved = await t.api('PATCH', `/entries/${id}`, {
      name: 'Prices',
      fields: { title: { en: 'Prices' } },
    });
    expect(saved.body.entry).toMatchObject({
      status: 'changed',
      name: 'Prices',
      fields: { title: { en: 'Prices' } },
    });
    expect((await t.get(`/entries/${id}`)).body.entry.content.fields.title).toBe('Pricing');
    await t.api('POST', `/entries/${id}/publish`);
    expect((await t.get(`/entries/${id}`)).body.entry).toMatchObject({
      name: 'Prices',
      content: { fields: { title: 'Prices' } },
    });

    const un = await t.api('POST', `/entries/${id}/unpublish`);
    expect(un.body).toMatchObject({
      cv: cv0 + 3,
      entry: { status: 'draft', fields: { title: { en: 'Prices' } } },
    });
    expect((await t.get(`/entries/${id}`)).status).toBe(404);
    expect((await t.api('POST', `/entries/${id}/unpublish`)).body.cv).toBeNull();
  });

  it('refuses bad bodies: shape 400 invalid_body, meaning 422 with JSON paths, clashes 409', async () => {
    const bad: [unknown, number, string, string[]?][] = [
      [{ type: 'page', name: 'X', slug: 'x', colour: 'red' }, 400, 'invalid_body'],
      [{ type: 'page', name: 'X', slug: 5 }, 400, 'invalid_body'],
      [{ type: 'page', name: 'X', slug: 'a/b' }, 422, 'validation_failed', ['slug']],
      [{ type: 'hero', name: 'X', slug: 'x' }, 422, 'validation_failed', ['type']],
      [{ type: 'page', name: 'X', slug: 'x', slugs: { fr: 'x' } }, 422, 'validation_failed', ['slugs.fr']],
      [{ type: 'page', name: 'X', slug: 'x', parent: 'ent_alice' }, 422, 'validation_failed', ['parent']],
      [
        { type: 'page', name: 'X', slug: 'x', fields: { title: { en: 5 } } },
        422,
        'validation_failed',
        ['fields.title.en'],
      ],
      [
        { type: 'page', name: 'X', slug: 'x', fields: { author: 'ent_about' } },
        422,
        'validation_failed',
        ['fields.author'],
      ],
      [
        { type: 'page', name: 'X', slug: 'x', fields: { nope: 1 } },
        422,
        'validation_failed',
        ['fields.nope'],
      ],
      [{ id: 'ent_about', type: 'page', name: 'X', slug: 'x' }, 409, 'conflict'],
      [{ type: 'footer', name: 'Second footer', slug: 'f2' }, 409, 'conflict'],
    ];
    for (const [body, code, error, paths] of bad) {
      const r = await t.api('POST', '/entries', body);
      expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([code, error]);
      if (paths) expect(Object.keys(r.body.error.details.fields)).toEqual(paths);
    }
    expect((await t.api('PATCH', '/entries/ent_nope', { name: 'x' })).status).toBe(404);
    expect((await t.api('PATCH', '/entries/ent_about', {})).status).toBe(400);
  });

  it('moves within the tree, refusing cycles, and keeps moves of drafts out of the published log', async () => {
    const folder = (await t.api('POST', '/entries', { type: 'folder', name: 'Docs', slug: 'docs' })).body
      .entry.id;
    const cv0 = await status();
    // Nothing below the folder is published: the move is authoring only.
    const moved = await t.api('POST', `/entries/${folder}/move`, { parent: 'ent_blog', position: 7 });
    expect(moved.body).toMatchObject({ cv: null, entry: { parentId: 'ent_blog', position: 7 } });
    expect(await status()).toBe(cv0);
    const cycle = await t.api('POST', '/entries/ent_blog/move', { parent: folder });
    expect([cycle.status, Object.keys(cycle.body.error.details.fields)]).toEqual([422, ['parent']]);
    // Position only: the page is republished in place.
    const pos = await t.api('POST', '/entries/ent_about/move', { position: 9 });
    expect(pos.body.cv).toBe(cv0 + 1);
    expect((await t.get('/entries/ent_about')).body.entry.position).toBe(9);
  });

  it('deletes entries: refuses ones with children, publishes when they were delivered', async () => {
    const child = await t.api('DELETE', '/entries/ent_blog');
    expect([child.status, child.body.error.code]).toEqual([409, 'conflict']);
    const draft = (await t.api('POST', '/entries', { type: 'page', name: 'Tmp', slug: 'tmp' })).body.entry.id;
    const rel = await t.api('POST', '/releases', { name: 'Temp', entries: [{ id: draft, fields: {} }] });
    expect(rel.status).toBe(201);
    const cv0 = await status();
    // Never delivered: deleting it is not a publish.
    expect((await t.api('DELETE', `/entries/${draft}`)).body).toEqual({ id: draft, deleted: true, cv: null });
    expect(await status()).toBe(cv0);
    expect((await t.api('GET', `/entries/${draft}`)).status).toBe(404);
    expect((await t.api('GET', `/releases/${rel.body.release.id}`)).body.release.entries).toEqual([]);
    // A published page: its deletion is a publish.
    const live = (await t.api('POST', '/entries', { type: 'page', name: 'Live', slug: 'live' })).body.entry
      .id;
    await t.api('POST', `/entries/${live}/publish`);
    const gone = await t.api('DELETE', `/entries/${live}`);
    expect(gone.body.cv).toBe(cv0 + 2);
    expect((await t.get('/entries/by-path/live')).status).toBe(404);
  });

  it('refuses deleting an entry a release links to or references, naming the release; the release still publishes', async () => {
    const page = async (name: string) =>
      (await t.api('POST', '/entries', { type: 'page', name, slug: name.toLowerCase() })).body.entry.id;
    const linked = await page('Linked');
    const referenced = await page('Referenced');
    const holder = await page('Holder');
    const rel = await t.api('POST', '/releases', {
      name: 'Autumn',
      entries: [{ id: holder, fields: { cta: { kind: 'entry', entry: linked }, related: [referenced] } }],
    });
    expect(rel.status, JSON.stringify(rel.body)).toBe(201);
    const relId = rel.body.release.id;
    for (const id of [linked, referenced]) {
      const refused = await t.api('DELETE', `/entries/${id}`);
      expect([refused.status, refused.body.error.code]).toEqual([409, 'conflict']);
      expect(refused.body.error.message).toContain(`"Autumn" (${relId})`);
      expect(refused.body.error.details).toEqual({ releases: [relId] });
      expect((await t.api('GET', `/entries/${id}`)).status).toBe(200);
    }
    const published = await t.api('POST', `/releases/${relId}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  });

  it('manages option lists (saving publishes) and refuses deleting a list in use', async () => {
    const cv0 = await status();
    const saved = await t.api('PUT', '/lists/sizes', {
      name: 'Sizes',
      options: [{ value: 's', label: { en: 'Small', de: 'Klein' } }],
    });
    expect(saved.body).toMatchObject({ cv: cv0 + 1, list: { key: 'sizes' } });
    expect((await t.api('GET', '/lists')).body.lists.map((l: { key: string }) => l.key)).toEqual([
      'colors',
      'sizes',
    ]);
    const dup = await t.api('PUT', '/lists/sizes', {
      options: [
        { value: 's', label: { en: 'S' } },
        { value: 's', label: { en: 'S2' } },
      ],
    });
    expect([dup.status, Object.keys(dup.body.error.details.fields)]).toEqual([422, ['options[1].value']]);
    expect((await t.api('DELETE', '/lists/sizes')).body).toMatchObject({ deleted: true, cv: cv0 + 2 });
    expect((await t.api('GET', '/lists/sizes')).status).toBe(404);
  });

  it('publishes a release at once: every entry of it at one cv, and the release is gone', async () => {
    const created = await t.api('POST', '/releases', {
      name: 'Launch',
      entries: [
        { id: 'ent_home', fields: { title: { en: 'Launched home' } } },
        { id: 'ent_about', fields: { title: { en: 'Launched about' } } },
      ],
    });
    expect(created.status).toBe(201);
    const { id } = created.body.release;
    const bad = await t.api('PUT', `/releases/${id}`, {
      name: 'Launch',
      entries: [{ id: 'ent_zed', fields: {} }],
    });
    expect([bad.status, Object.keys(bad.body.error.details.fields)]).toEqual([422, ['entries[0].id']]);
    const cv0 = await status();
    const published = await t.api('POST', `/releases/${id}/publish`);
    expect(published.body).toEqual({ id, published: true, cv: cv0 + 1 });
    expect((await t.get('/entries/ent_home')).body.entry.content.fields.title).toBe('Launched home');
    expect((await t.get('/entries/ent_about')).body.entry.content.fields.title).toBe('Launched about');
    expect((await t.get(`/entries/ent_home?cv=${cv0}`)).body.entry.content.fields.title).toBe('Welcome');
    expect((await t.api('GET', `/releases/${id}`)).status).toBe(404);
  });
});
