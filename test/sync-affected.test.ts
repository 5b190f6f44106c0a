// Issue 31 item 4: /sync's `affected` is exact. An oracle renders every page of the space, by id in every locale,
// at both ends of a step; the pages whose bytes differ must be exactly the changed pages, the affected ones and the
// deleted ones (by their last paths), for a rename, a move, an unpublish, an asset's alt text edit and a menu
// change. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetDoc } from '../src/content/model.js';
import { withPublish } from '../src/content/publish-log.js';
import { putDocVersion, readDocsAt } from '../src/store/log-repo.js';
import { ENGINES } from './helpers/engines.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';

const LOCALES = ['de', 'de-ch', 'en']; // sorted, as sync sorts affected pages

interface Item {
  kind: string;
  id?: string;
  locale?: string;
  path?: string | null;
  page?: boolean;
  paths?: Record<string, string> | null;
}
interface SyncBody {
  changed: Item[];
  affected: Item[];
  deleted: Item[];
  nextCursor: string | null;
}

describe.each(ENGINES)('/sync affected on %s (issue 31)', (engine) => {
  let t: ManagementApp;
  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
  });
  afterAll(async () => t?.close());

  const cvNow = async (): Promise<number> => (await t.get('/status')).body.cv;

  /** Every page visible at `cv`, as `id locale`. */
  async function pagesAt(cv: number): Promise<Set<string>> {
    const body: SyncBody = (await t.get(`/sync?since=0&cv=${cv}&limit=1000`)).body;
    return new Set(
      body.changed
        .filter((i) => i.kind === 'entry' && i.page === true && typeof i.path === 'string')
        .map((i) => `${i.id} ${i.locale}`),
    );
  }

  /** A page as a site renders it (by id, so a moved page compares with itself); without the answer's cv. */
  async function render(page: string, cv: number, include: string): Promise<string | null> {
    const [id, locale] = page.split(' ');
    const r = await t.get(`/entries/${id}?locale=${locale}&cv=${cv}${include}`);
    if (r.status === 404) return null;
    expect(r.status).toBe(200);
    return JSON.stringify({ entry: r.body.entry, included: r.body.included });
  }

  /** The oracle: pages whose bytes differ between the two cvs. */
  async function differing(from: number, to: number, include: string): Promise<string[]> {
    const pages = new Set([...(await pagesAt(from)), ...(await pagesAt(to))]);
    const out: string[] = [];
    for (const page of pages)
      if ((await render(page, from, include)) !== (await render(page, to, include))) out.push(page);
    return out.sort();
  }

  /** What sync says: changed pages ∪ affected ∪ deleted pages (per locale of their last paths). */
  async function named(
    from: number,
    to: number,
    include: string,
  ): Promise<{ all: string[]; affected: string[] }> {
    const body: SyncBody = (await t.get(`/sync?since=${from}&cv=${to}&limit=1000${include}`)).body;
    expect(body.nextCursor).toBeNull();
    const changed = body.changed
      .filter((i) => i.kind === 'entry' && i.page === true)
      .map((i) => `${i.id} ${i.locale}`);
    const affected = body.affected.map((i) => `${i.id} ${i.locale}`);
    const deleted = body.deleted.flatMap((i) =>
      i.kind === 'entry' ? Object.keys(i.paths ?? {}).map((l) => `${i.id} ${l}`) : [],
    );
    for (const i of body.affected)
      expect(i).toMatchObject({ kind: 'affected', path: expect.stringMatching(/^\//) });
    return { all: [...new Set([...changed, ...affected, ...deleted])].sort(), affected: affected.sort() };
  }

  /** A step, checked against the oracle without `include` and with one (`&include=author,related`). */
  async function step(
    work: () => Promise<unknown>,
    include = '',
  ): Promise<{ all: string[]; affected: string[] }> {
    const from = await cvNow();
    await work();
    const to = await cvNow();
    expect(to).toBeGreaterThan(from);
    const said = await named(from, to, include);
    expect(said.all).toEqual(await differing(from, to, include));
    if (include === '') {
      const withInclude = '&include=author,related';
      expect((await named(from, to, withInclude)).all).toEqual(await differing(from, to, withInclude));
    }
    return said;
  }

  const ok = async (r: Promise<{ status: number; body: unknown }>) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  };

  it('a rename: the pages linking the renamed one, in the locales whose path changed', async () => {
    const said = await step(() => ok(t.api('POST', '/entries/ent_about/rename', { slugs: { de: 'wir' } })));
    // The home page links /about in rich text and `related`; its German paths changed (de-ch falls back to de).
    expect(said.affected).toEqual(['ent_home de', 'ent_home de-ch']);
  });

  it('a move: the page linking the moved one, in every locale', async () => {
    const said = await step(() => ok(t.api('POST', '/entries/ent_post/move', { parent: null })));
    expect(said.affected).toEqual(LOCALES.map((l) => `ent_home ${l}`));
  });

  it("an asset's alt text: the pages showing it, in the locales whose text changed", async () => {
    const docs = await readDocsAt<AssetDoc>(t.store, 'spc_test', 'asset', ['ast_pic'], await cvNow());
    const doc = docs.get('ast_pic');
    if (!doc) throw new Error('ast_pic is not published');
    // A new version of the asset in the published log, as an import writes it (the API has no asset edit yet).
    const said = await step(() =>
      withPublish(t.store, 'spc_test', (tx, cv) =>
        putDocVersion(tx, 'spc_test', cv, 'asset', 'ast_pic', {
          ...doc,
          alt: { ...doc.alt, de: 'Ein Foto' },
        }),
      ),
    );
    expect(said.affected).toEqual(['ent_home de', 'ent_home de-ch']);
  });

  it("an included entry's edit: with include, the pages including it; without, none", async () => {
    const edit = async () => {
      await ok(t.api('PATCH', '/entries/ent_alice', { fields: { name: 'Alicia' } }));
      await ok(t.api('POST', '/entries/ent_alice/publish'));
    };
    expect((await step(edit)).affected).toEqual([]);
    const said = await step(async () => {
      await ok(t.api('PATCH', '/entries/ent_alice', { fields: { name: 'Alice B.' } }));
      await ok(t.api('POST', '/entries/ent_alice/publish'));
    }, '&include=author');
    expect(said.affected).toEqual(LOCALES.map((l) => `ent_home ${l}`));
  });

  it('a menu change: no page shows a menu, none is affected', async () => {
    const said = await step(() =>
      ok(
        t.api('PUT', '/menus/main', {
          name: 'Main',
          items: [{ label: { en: 'About' }, link: { kind: 'entry', entry: 'ent_about' }, children: [] }],
        }),
      ),
    );
    expect(said.all).toEqual([]);
  });

  it('an unpublish: the pages linking or referencing it, and the page itself with its last paths', async () => {
    const said = await step(() => ok(t.api('POST', '/entries/ent_about/unpublish')));
    expect(said.affected).toEqual(LOCALES.map((l) => `ent_home ${l}`));
    expect(said.all).toEqual(
      [...LOCALES.map((l) => `ent_about ${l}`), ...LOCALES.map((l) => `ent_home ${l}`)].sort(),
    );
  });

  it('gives affected pages on the first page of a difference only', async () => {
    const body: SyncBody = (await t.get('/sync?since=1&limit=1')).body;
    expect(body.affected.length).toBeGreaterThan(0);
    expect(body.nextCursor).not.toBeNull();
    const next: SyncBody = (await t.get(`/sync?cursor=${encodeURIComponent(body.nextCursor ?? '')}&limit=1`))
      .body;
    expect(next.affected).toEqual([]);
  });
});
