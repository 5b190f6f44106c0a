import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { call, type ManagementApp, openManagementApp } from './helpers/management.js';

const item = (id: string, label: Record<string, string>, link: unknown, children: unknown[] = []) => ({
  id,
  label,
  link,
  target: null,
  children,
});
const entry = (id: string) => ({ kind: 'entry', entry: id });

async function menuEvents(t: ManagementApp) {
  const rows = await t.store.db.selectFrom('outbox').select('payload').where('kind', '=', 'event').execute();
  return rows
    .map((r) => t.store.dialect.parseJson<{ type: string; data: Record<string, unknown> }>(r.payload))
    .filter((e) => e.type === 'menu.updated')
    .map((e) => e.data);
}

describe.each(ENGINES)('menus on %s (spec 2.5)', (engine) => {
  let t: ManagementApp;
  let doomed: string;
  let cvBefore: number;

  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
    const created = await t.api('POST', '/entries', {
      type: 'page',
      name: 'Doomed',
      slug: 'doomed',
      fields: {},
    });
    doomed = created.body.entry.id;
    await t.api('POST', `/entries/${doomed}/publish`);
    cvBefore = (await t.get('/status')).body.cv;
  });
  afterAll(async () => t.close());

  it('saving a menu publishes it: one cv bump and menu.updated carrying the cv', async () => {
    const saved = await t.api('PUT', '/menus/main', {
      name: 'Main',
      items: [
        item('mni_about', { en: 'About', de: 'Über uns' }, entry('ent_about')),
        item('mni_empty', { en: 'Drafts' }, null, [
          item('mni_draft', { en: 'Draft' }, entry('ent_draftonly')),
        ]),
        item('mni_more', { en: 'More', de: 'Mehr' }, null, [
          item('mni_url', { en: 'Shop' }, { kind: 'url', url: 'https://shop.example/' }),
          item('mni_mail', { en: 'Mail' }, { kind: 'email', email: 'hello@example.com' }),
          item('mni_file', { en: 'Picture' }, { kind: 'asset', asset: 'ast_pic' }),
        ]),
        item('mni_post', { en: 'Post', de: 'Beitrag' }, entry('ent_post'), [
          {
            label: { en: 'Home' },
            link: entry('ent_home'),
            children: [item('mni_deep', { en: 'Deep' }, { kind: 'url', url: '/deep' })],
          },
        ]),
        item('mni_doomed', { en: 'Doomed' }, entry(doomed), [
          item('mni_under', { en: 'Under' }, { kind: 'url', url: '/under' }),
        ]),
        item('mni_doomed2', { en: 'Doomed again' }, entry(doomed)),
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.cv).toBe(cvBefore + 1);
    // An item without an id got one.
    expect(saved.body.menu.items[3].children[0].id).toMatch(/^mni_/);
    expect(await menuEvents(t)).toContainEqual({ key: 'main', cv: saved.body.cv });
  });

  it('delivers items with href in the locale, entryId and children up to three levels', async () => {
    const r = await t.get('/menus/main?locale=de-ch');
    expect(r.status).toBe(200);
    expect(r.body.cv).toEqual(expect.any(Number));
    const [about, more, post, doomedItem] = r.body.menu.items;
    expect(r.body.menu).toMatchObject({ key: 'main', name: 'Main' });
    expect(about).toEqual({
      id: 'mni_about',
      label: 'Über uns',
      href: '/ueber-uns',
      target: null,
      entryId: 'ent_about',
      children: [],
    });
    expect(more.href).toBeNull();
    expect(more.children.map((c: { href: string }) => c.href)).toEqual([
      'https://shop.example/',
      'mailto:hello@example.com',
      'http://folio.test/v1/spc_test/assets/ast_pic/pic.png',
    ]);
    expect(post).toMatchObject({ label: 'Beitrag', href: '/blog/hallo', entryId: 'ent_post' });
    expect(post.children[0]).toMatchObject({ label: 'Home', href: '/', entryId: 'ent_home' });
    expect(post.children[0].children[0]).toMatchObject({ href: '/deep', entryId: null, children: [] });
    expect(doomedItem.entryId).toBe(doomed);
  });

  it('leaves out items to unpublished pages and headings left without children', async () => {
    const ids = (await t.get('/menus/main')).body.menu.items.map((i: { id: string }) => i.id);
    expect(ids).not.toContain('mni_empty');
    await t.api('POST', '/entries/ent_about/unpublish');
    const without = (await t.get('/menus/main')).body.menu.items.map((i: { id: string }) => i.id);
    expect(without).not.toContain('mni_about');
    // A page's change of visibility is a change of the menus linking to it: menu.updated again.
    const { cv } = (await t.get('/status')).body;
    expect(await menuEvents(t)).toContainEqual({ key: 'main', cv });
    await t.api('POST', '/entries/ent_about/publish');
    expect((await t.get('/menus/main')).body.menu.items[0].id).toBe('mni_about');
    // Preview tokens see draft pages in menus.
    const preview = await call(t.app, 'GET', '/v1/spc_test/menus/main?draft=1', {
      authorization: `Bearer ${TOKENS.preview}`,
    });
    const heading = preview.body.menu.items.find((i: { id: string }) => i.id === 'mni_empty');
    expect(heading.children[0]).toMatchObject({ id: 'mni_draft', href: '/draft-only' });
  });

  it('deleting a page removes it from menus permanently (its children stay under a heading)', async () => {
    const deleted = await t.api('DELETE', `/entries/${doomed}`);
    expect(deleted.status).toBe(200);
    const items = (await t.get('/menus/main')).body.menu.items;
    expect(items.map((i: { id: string }) => i.id)).not.toContain('mni_doomed2');
    const kept = items.find((i: { id: string }) => i.id === 'mni_doomed');
    expect(kept).toMatchObject({
      href: null,
      entryId: null,
      children: [{ id: 'mni_under', href: '/under' }],
    });
    const authored = (await t.api('GET', '/menus/main')).body.menu;
    expect(JSON.stringify(authored)).not.toContain(doomed);
    expect(await menuEvents(t)).toContainEqual({ key: 'main', cv: deleted.body.cv });
  });

  it('serves several menus by keys, all without keys, 404 for unknown keys, and pinned cvs', async () => {
    await t.api('PUT', '/menus/footer', {
      name: 'Footer',
      items: [item('mni_f', { en: 'Home' }, entry('ent_home'))],
    });
    const two = await t.get('/menus?keys=main,footer&locale=de');
    expect(Object.keys(two.body.menus).sort()).toEqual(['footer', 'main']);
    expect(two.body.menus.footer.items[0].href).toBe('/');
    expect(Object.keys((await t.get('/menus')).body.menus).sort()).toEqual(['footer', 'main']);
    expect((await t.get('/menus?keys=main,nope')).status).toBe(404);
    expect((await t.get('/menus/nope')).body.error.code).toBe('not_found');
    expect((await t.get('/menus/main?include=x')).status).toBe(400);
    const pinned = await t.get(`/menus/main?cv=${cvBefore}`);
    expect(pinned.body.menu.items).toEqual([]);
    const del = await t.api('DELETE', '/menus/footer');
    expect(del.status).toBe(200);
    expect((await t.get('/menus/footer')).status).toBe(404);
    expect((await t.get(`/menus/footer?cv=${del.body.cv - 1}`)).status).toBe(200);
  });

  it('refuses bad menus with the JSON path of each problem', async () => {
    const deep = item('mni_1', { en: 'a' }, null, [
      item('mni_2', { en: 'b' }, null, [
        item('mni_3', { en: 'c' }, null, [item('mni_4', { en: 'd' }, null)]),
      ]),
    ]);
    const cases: [unknown[], string][] = [
      [[deep], 'items[0].children[0].children[0].children'],
      [[item('mni_x', { en: 'x' }, entry('ent_nope'))], 'items[0].link.entry'],
      [[item('mni_x', { en: 'x' }, entry('ent_alice'))], 'items[0].link.entry'],
      [[item('mni_x', { en: 'x' }, { kind: 'url', url: 'javascript:alert(1)' })], 'items[0].link.url'],
      [[item('mni_x', { en: 'x' }, { kind: 'email', email: 'not-an-address' })], 'items[0].link.email'],
      [[item('mni_x', { en: 'x' }, { kind: 'ftp' })], 'items[0].link.kind'],
      [[item('mni_x', { fr: 'x' }, null)], 'items[0].label.fr'],
      [[item('mni_x', { en: 'x' }, null), item('mni_x', { en: 'y' }, null)], 'items[1].id'],
      [[{ ...item('mni_x', { en: 'x' }, null), target: '_top' }], 'items[0].target'],
    ];
    for (const [items, path] of cases) {
      const r = await t.api('PUT', '/menus/main', { name: 'Main', items });
      expect([r.status, r.body.error.code, Object.keys(r.body.error.details.fields)]).toEqual([
        422,
        'validation_failed',
        [path],
      ]);
    }
    const shape = await t.api('PUT', '/menus/main', { name: 'Main', items: [], extra: 1 });
    expect([shape.status, shape.body.error.code]).toEqual([400, 'invalid_body']);
  });
});
