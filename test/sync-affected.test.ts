// `/sync` names every answer a site reads whose bytes changed, and nothing else. An oracle reads every kind of
// answer of the demo space at both ends of a step (entries by id and by path, globals, menus, redirects, option
// lists, forms, the sitemap and the tree, in every locale, with and without `include`), and compares the answers
// that differ with what `/sync` names for the step, walked in small pages: the same set, on both engines. The
// steps: a rename, a move, a content-only edit of a widely linked post, an included entry's edit, an asset's alt
// text, a menu edit, a global edit, an option list edit, an unpublish, a publish again, a delete and a redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetDoc } from '../src/content/model.js';
import { withPublish } from '../src/content/publish-log.js';
import { redirectKey } from '../src/redirects/redirect-model.js';
import { putDocVersion, readDocsAt } from '../src/store/log-repo.js';
import { DEMO_SPACE, type DemoApp, openDemoApp } from './helpers/demo-app.js';
import { ENGINES } from './helpers/engines.js';
import type { Res } from './helpers/management.js';

const LOCALES = ['en', 'de', 'de-ch'];
const INCLUDE = '&include=author,related';

interface Item {
  kind: string;
  id?: string;
  key?: string;
  locale?: string | null;
  path?: string | null;
  paths?: Record<string, string> | null;
}
interface SyncBody {
  changed: Item[];
  affected: Item[];
  deleted: Item[];
  truncated: boolean;
  nextCursor: string | null;
}

/** Drops the `cv` member an answer carries (it differs between any two cvs by design). */
const withoutCv = (body: unknown): string =>
  JSON.stringify(body, (key, value: unknown) => (key === 'cv' ? undefined : value));

describe.each(ENGINES)('/sync names exactly the answers that changed, on %s', (engine) => {
  let t: DemoApp;
  const seen = new Map<string, Map<string, string>>();
  beforeAll(async () => {
    t = await openDemoApp(engine);
  });
  afterAll(async () => t?.close());

  const cvNow = async (): Promise<number> => (await t.get('/status')).body.cv;
  const ok = async (r: Promise<Res>): Promise<Res> => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res;
  };

  /** What is published at `cv`, from a full sync (the oracle reads each of it by its own route). */
  async function published(cv: number) {
    const all: SyncBody = (await t.get(`/sync?since=0&cv=${cv}&limit=1000`)).body;
    const keys = (kind: string) =>
      new Set(all.changed.flatMap((i) => (i.kind === kind && i.key ? [i.key] : [])));
    return {
      ids: new Set(all.changed.flatMap((i) => (i.id !== undefined ? [i.id] : []))),
      globals: keys('global'),
      menus: keys('menu'),
      lists: keys('list'),
      forms: keys('form'),
    };
  }

  /** Every answer at `cv` that `include` changes: entries by id and path, globals. */
  async function included(cv: number, include: string, out: Map<string, string>): Promise<void> {
    const { ids, globals } = await published(cv);
    for (const locale of LOCALES) {
      const q = `locale=${locale}&cv=${cv}${include}`;
      for (const id of ids) {
        const r = await t.get(`/entries/${id}?${q}`);
        if (r.status !== 200) continue;
        out.set(`entry ${id} ${locale}`, withoutCv(r.body));
        const path: unknown = r.body.entry.path;
        if (typeof path === 'string' && !path.startsWith('@')) {
          const byPath = await t.get(`/entries/by-path${path === '/' ? '' : path}?${q}`);
          if (byPath.status === 200) out.set(`path ${locale} ${path.toLowerCase()}`, withoutCv(byPath.body));
        }
      }
      for (const key of globals)
        out.set(`global ${key} ${locale}`, withoutCv((await t.get(`/globals/${key}?${q}`)).body));
    }
  }

  /** Every other answer at `cv`: menus, redirects, sitemap, tree, option lists (per locale) and forms. */
  async function others(cv: number, out: Map<string, string>): Promise<void> {
    const { menus, lists, forms } = await published(cv);
    for (const locale of LOCALES) {
      const q = `locale=${locale}&cv=${cv}`;
      for (const key of menus)
        out.set(`menu ${key} ${locale}`, withoutCv((await t.get(`/menus/${key}?${q}`)).body));
      const redirects = (await t.get(`/redirects?${q}`)).body.redirects as { from: string }[];
      for (const r of redirects) out.set(`redirect ${locale} ${redirectKey(r.from)}`, JSON.stringify(r));
      out.set(`sitemap ${locale}`, withoutCv((await t.get(`/sitemap?${q}`)).body));
      out.set(`tree ${locale}`, withoutCv((await t.get(`/tree?${q}`)).body));
      for (const key of lists)
        out.set(`list ${key} ${locale}`, withoutCv((await t.get(`/lists/${key}?${q}`)).body));
    }
    for (const key of forms) {
      const bodies = [];
      for (const locale of LOCALES)
        bodies.push((await t.get(`/forms/${key}?locale=${locale}&cv=${cv}`)).body);
      out.set(`form ${key}`, withoutCv(bodies));
    }
  }

  /** Every answer at `cv`, by name; entries and globals with `include`. Read once per cv and `include`. */
  async function answers(cv: number, include: string): Promise<Map<string, string>> {
    const key = `all ${cv} ${include}`;
    let common = seen.get(`common ${cv}`);
    if (!common) {
      common = new Map();
      await others(cv, common);
      seen.set(`common ${cv}`, common);
    }
    let out = seen.get(key);
    if (!out) {
      out = new Map(common);
      await included(cv, include, out);
      seen.set(key, out);
    }
    return out;
  }

  /** The names whose answers differ between the two cvs (appeared, went or changed), paths apart. */
  async function differing(from: number, to: number, include: string) {
    const a = await answers(from, include);
    const b = await answers(to, include);
    const names = new Set([...a.keys(), ...b.keys()].filter((k) => a.get(k) !== b.get(k)));
    const paths = [...names].filter((n) => n.startsWith('path '));
    return { names: [...names].filter((n) => !n.startsWith('path ')).sort(), paths };
  }

  /** What `/sync` names for the span, walked two documents a page. */
  async function named(from: number, to: number, include: string) {
    const names = new Set<string>();
    const pathsNamed = new Set<string>();
    let url = `/sync?since=${from}&cv=${to}&limit=2${include}`;
    for (;;) {
      const r = await t.get(url);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const body: SyncBody = r.body;
      expect(body.truncated).toBe(false);
      for (const i of [...body.changed, ...body.affected]) {
        const locale = String(i.locale);
        if (i.kind === 'entry' || i.kind === 'affected' || i.kind === 'global') {
          names.add(`entry ${i.id} ${locale}`);
          if (i.key !== undefined) names.add(`global ${i.key} ${locale}`);
          if (typeof i.path === 'string' && i.kind !== 'global') pathsNamed.add(`${locale} ${i.id}`);
        } else if (i.kind === 'menu') names.add(`menu ${i.key} ${locale}`);
        else if (i.kind === 'redirect') names.add(`redirect ${locale} ${redirectKey(String(i.path))}`);
        else if (i.kind === 'sitemap' || i.kind === 'tree') names.add(`${i.kind} ${locale}`);
        else if (i.kind === 'list') names.add(`list ${i.key} ${locale}`);
        else if (i.kind === 'form') names.add(`form ${i.key}`);
      }
      for (const i of body.deleted) {
        if (i.kind === 'entry' || i.kind === 'global')
          for (const locale of LOCALES) {
            names.add(`entry ${i.id} ${locale}`);
            if (i.key !== undefined) names.add(`global ${i.key} ${locale}`);
            pathsNamed.add(`${locale} ${i.id}`);
          }
        else if (i.kind === 'menu' || i.kind === 'list')
          for (const locale of LOCALES) names.add(`${i.kind} ${i.key} ${locale}`);
        else if (i.kind === 'redirect') names.add(`redirect ${i.locale} ${redirectKey(String(i.path))}`);
        else if (i.kind === 'form') names.add(`form ${i.key}`);
      }
      if (body.nextCursor === null) break;
      url = `/sync?cursor=${encodeURIComponent(body.nextCursor)}&limit=2${include}`;
    }
    return { names: [...names].sort(), pathsNamed };
  }

  /** The entry answering a path at either end: a path whose answer changed must belong to a named entry. */
  async function pathOwners(cv: number, include: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const [name, body] of await answers(cv, include)) {
      if (!name.startsWith('path ')) continue;
      const [, locale] = name.split(' ');
      out.set(name, `${locale} ${(JSON.parse(body) as { entry: { id: string } }).entry.id}`);
    }
    return out;
  }

  /** One step, checked with and without `include`; returns what sync named without it. */
  async function step(work: () => Promise<unknown>): Promise<string[]> {
    const from = await cvNow();
    await work();
    const to = await cvNow();
    expect(to).toBeGreaterThan(from);
    let plain: string[] = [];
    for (const include of ['', INCLUDE]) {
      const said = await named(from, to, include);
      const truth = await differing(from, to, include);
      expect(said.names, include).toEqual(truth.names);
      const owners = new Map([...(await pathOwners(from, include)), ...(await pathOwners(to, include))]);
      for (const path of truth.paths) expect(said.pathsNamed, path).toContain(owners.get(path));
      if (include === '') plain = said.names;
    }
    return plain;
  }

  const edit = async (id: string, fields: Record<string, unknown>) => {
    await ok(t.api('PATCH', `/entries/${id}`, { fields }));
    await ok(t.api('POST', `/entries/${id}/publish`));
  };
  const fieldsOf = async (id: string) => (await ok(t.api('GET', `/entries/${id}`))).body.entry.fields;

  it('a rename: the page, the global and the pages linking it, the menu, the redirects, sitemap and tree', async () => {
    const said = await step(() => ok(t.api('POST', '/entries/ent_about/rename', { slug: 'about-us' })));
    // The footer links /about; only the English path changed (German has a slug of its own).
    expect(said).toContain('entry ent_footer en');
    expect(said).toContain('global footer en');
    expect(said).not.toContain('global footer de');
    expect(said).toContain('redirect en /about');
  });

  it('a move: the moved page and what links it, in every locale', async () => {
    await step(() => ok(t.api('POST', '/entries/ent_getting_started/move', { parent: 'ent_blog' })));
  });

  it('a content-only edit of a widely linked post: no linking page, only those including it', async () => {
    const fields = await fieldsOf('ent_hello_world');
    const said = await step(() =>
      edit('ent_hello_world', { ...fields, excerpt: { ...fields.excerpt, en: 'Changed excerpt' } }),
    );
    expect(said.filter((n) => n.startsWith('entry ') && !n.includes('ent_hello_world'))).toEqual([]);
  });

  it("an included entry's edit: with include, the posts including it", async () => {
    const fields = await fieldsOf('ent_mara');
    const said = await step(() => edit('ent_mara', { ...fields, name: 'Mara K.' }));
    expect(said.filter((n) => n.startsWith('entry ') && !n.includes('ent_mara'))).toEqual([]);
  });

  it("an asset's alt text: the entries showing it, where their text changed", async () => {
    const cv = await cvNow();
    const docs = await readDocsAt<AssetDoc>(t.store, DEMO_SPACE, 'asset', ['ast_portrait'], cv);
    const doc = docs.get('ast_portrait');
    if (!doc) throw new Error('ast_portrait is not published');
    // A new version of the asset in the published log, as an import writes it.
    const said = await step(() =>
      withPublish(t.store, DEMO_SPACE, (tx, next) =>
        putDocVersion(tx, DEMO_SPACE, next, 'asset', 'ast_portrait', {
          ...doc,
          alt: { ...doc.alt, de: 'Ein Porträt' },
        }),
      ),
    );
    expect(said).toContain('entry ent_mara de');
    expect(said).not.toContain('entry ent_mara en');
  });

  it('a menu edit: the menu in the locales whose labels changed', async () => {
    const menu = (await ok(t.api('GET', '/menus/main'))).body.menu;
    const [first, ...rest] = menu.items;
    const said = await step(() =>
      ok(
        t.api('PUT', '/menus/main', {
          name: menu.name,
          items: [{ ...first, label: { ...first.label, de: 'Startseite' } }, ...rest],
        }),
      ),
    );
    expect(said).toEqual(['menu main de', 'menu main de-ch']);
  });

  it('a global edit: the global, in every locale', async () => {
    const fields = await fieldsOf('ent_footer');
    await step(() => edit('ent_footer', { ...fields, copyright: { ...fields.copyright, de: '© Demo' } }));
  });

  it('an option list edit: the list, the form using it and the page showing the form', async () => {
    const list = (await ok(t.api('GET', '/lists/countries'))).body.list;
    const [first, ...rest] = list.options;
    const said = await step(() =>
      ok(
        t.api('PUT', '/lists/countries', {
          name: list.name,
          options: [{ ...first, label: { ...first.label, de: `${first.label.de ?? 'X'}!` } }, ...rest],
        }),
      ),
    );
    expect(said).toContain('form contact');
    expect(said).toContain('list countries de');
    expect(said).not.toContain('list countries en');
    expect(said).toContain('entry ent_contact de');
  });

  it('an unpublish, and a publish again', async () => {
    const said = await step(() => ok(t.api('POST', '/entries/ent_about/unpublish')));
    expect(said).toContain('global footer en');
    expect(said).toContain('global footer de');
    await step(() => ok(t.api('POST', '/entries/ent_about/publish')));
  });

  it('a delete, and a redirect made by hand', async () => {
    await step(() => ok(t.api('DELETE', '/entries/ent_release_1_0')));
    await step(() =>
      ok(
        t.api('POST', '/redirects', {
          from: '/old-blog',
          to: { kind: 'entry', entry: 'ent_blog_start' },
          status: 301,
          locale: 'de',
        }),
      ),
    );
  });

  it('serves every page of one span from one computation, whatever the limit and locale', async () => {
    const body: SyncBody = (await t.get('/sync?since=1&limit=1')).body;
    expect(body.nextCursor).not.toBeNull();
    const all = (await t.get('/sync?since=1&limit=1000')).body as SyncBody;
    const german = (await t.get('/sync?since=1&limit=1000&locale=de')).body as SyncBody;
    expect(german.affected.every((i) => i.locale === 'de')).toBe(true);
    expect(german.affected.length).toBe(all.affected.filter((i) => i.locale === 'de').length);
  });
});
