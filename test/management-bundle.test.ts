import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportBundle, exportBundleToDir } from '../src/bundle/export-bundle.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { validateBundle } from '../src/bundle/validate-bundle.js';
import { buildApp } from '../src/server/app.js';
import { ENGINES, openTestEnv } from './helpers/engines.js';
import { fixtureBundle, TOKENS } from './helpers/fixture.js';
import { call, openManagementApp } from './helpers/management.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests break bundles freely
type Mutate = (b: any) => void;

const menuItem = {
  id: 'mni_a',
  label: { en: 'A' },
  link: { kind: 'entry', entry: 'ent_about' },
  target: null,
  children: [],
};

/** Bad menus, redirects and webhooks in a bundle, and the JSON path each problem must name. */
const BAD: [string, Mutate, string][] = [
  [
    'menu item to a missing entry',
    (b) => (b.menus[0].items = [{ ...menuItem, link: { kind: 'entry', entry: 'ent_zed' } }]),
    'menus[0].items[0].link.entry',
  ],
  [
    'menu nested four levels',
    (b) =>
      (b.menus[0].items = [
        {
          ...menuItem,
          children: [
            {
              ...menuItem,
              id: 'mni_b',
              children: [{ ...menuItem, id: 'mni_c', children: [{ ...menuItem, id: 'mni_d' }] }],
            },
          ],
        },
      ]),
    'menus[0].items[0].children[0].children[0].children',
  ],
  [
    'menu item label in an unknown locale',
    (b) => (b.menus[0].items = [{ ...menuItem, label: { fr: 'A' } }]),
    'menus[0].items[0].label.fr',
  ],
  [
    'menu link to an unknown asset',
    (b) => (b.menus[0].items = [{ ...menuItem, link: { kind: 'asset', asset: 'ast_zed' } }]),
    'menus[0].items[0].link.asset',
  ],
  ['duplicate menu key', (b) => b.menus.push({ key: 'main', name: 'Again', items: [] }), 'menus[1].key'],
  ['redirect to a missing entry', (b) => (b.redirects[0].to.entry = 'ent_zed'), 'redirects[0].to.entry'],
  ['redirect to a folder', (b) => (b.redirects[0].to.entry = 'ent_blog'), 'redirects[0].to.entry'],
  ['redirect from a path with a query', (b) => (b.redirects[0].from = '/old?x=1'), 'redirects[0].from'],
  ['redirect with status 307', (b) => (b.redirects[0].status = 307), 'redirects[0].status'],
  ['redirect gone without 410', (b) => (b.redirects[0].to = null), 'redirects[0].status'],
  ['redirect in an unknown locale', (b) => (b.redirects[0].locale = 'fr'), 'redirects[0].locale'],
  [
    'two redirects from one path',
    (b) => b.redirects.push({ ...b.redirects[0], from: '/OLD/' }),
    'redirects[1].from',
  ],
  [
    'webhook with a ftp URL',
    (b) => b.webhooks.push({ url: 'ftp://x.example', events: ['*'] }),
    'webhooks[0].url',
  ],
  [
    'webhook with an unknown event',
    (b) => b.webhooks.push({ url: 'https://x.example', events: ['entry.saved'] }),
    'webhooks[0].events[0]',
  ],
  [
    'webhook with a bad secret',
    (b) => b.webhooks.push({ url: 'https://x.example', events: ['*'], secret: 'abc' }),
    'webhooks[0].secret',
  ],
];

describe('bundle checks of menus, redirects and webhooks', () => {
  it.each(BAD)('rejects %s, naming the JSON path', (_name, mutate, path) => {
    const b = fixtureBundle();
    mutate(b);
    const check = validateBundle(b);
    expect(check.ok ? [] : check.problems.map((p) => p.path)).toContain(path);
  });
});

describe.each(ENGINES)('bundle round trip of menus, redirects and webhooks on %s', (engine) => {
  it('exports what the management API made, and an import of it delivers the same', async () => {
    const t = await openManagementApp(engine, { worker: false });
    const target = await openTestEnv(engine);
    const dir = mkdtempSync(join(tmpdir(), 'folio-export-'));
    try {
      await t.api('PUT', '/menus/main', {
        name: 'Main',
        items: [{ label: { en: 'About' }, link: { kind: 'entry', entry: 'ent_about' }, children: [] }],
      });
      await t.api('POST', '/entries/ent_post/rename', { slugs: { de: 'servus' } });
      const temp = (await t.api('POST', '/entries', { type: 'page', name: 'Temp', slug: 'temp' })).body.entry
        .id;
      await t.api('POST', `/entries/${temp}/publish`);
      await t.api('POST', `/entries/${temp}/rename`, { slug: 'temp-2' });
      await t.api('DELETE', `/entries/${temp}`);
      await t.api('POST', '/redirects', {
        from: '/sale',
        to: { kind: 'url', url: 'https://shop.example/' },
        status: 302,
        locale: 'de',
      });
      const hook = await t.api('POST', '/webhooks', {
        url: 'https://hooks.example/folio',
        events: ['menu.updated'],
      });

      // With secrets: the round trip below keeps every endpoint's signing secret.
      const { bundle } = await exportBundle(t.store, 'spc_test', { secrets: true });
      expect(bundle.redirects).toEqual([
        { from: '/old', to: { kind: 'entry', entry: 'ent_about' }, status: 301, locale: null },
        {
          from: '/blog/hallo',
          to: { kind: 'entry', entry: 'ent_post' },
          status: 301,
          locale: 'de',
          auto: true,
        },
        {
          from: '/blog/hallo',
          to: { kind: 'entry', entry: 'ent_post' },
          status: 301,
          locale: 'de-ch',
          auto: true,
        },
        { from: '/temp', to: null, status: 410, locale: 'en', auto: true },
        { from: '/temp', to: null, status: 410, locale: 'de', auto: true },
        { from: '/temp', to: null, status: 410, locale: 'de-ch', auto: true },
        { from: '/sale', to: { kind: 'url', url: 'https://shop.example/' }, status: 302, locale: 'de' },
      ]);
      expect(bundle.webhooks).toEqual([
        { url: 'https://hooks.example/folio', events: ['menu.updated'], secret: hook.body.webhook.secret },
      ]);
      expect(bundle.menus[0]!.items[0]!.id).toMatch(/^mni_/);
      expect(validateBundle(structuredClone(bundle)).ok).toBe(true);

      await exportBundleToDir(t.store, t.blobs, 'spc_test', dir, { secrets: true });
      await importBundle(
        target.store,
        target.blobs,
        JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')),
        {
          baseDir: dir,
        },
      );
      expect((await exportBundle(target.store, 'spc_test', { secrets: true })).bundle).toEqual(bundle);
      const app = await buildApp({ ...target, config: { ...target.config, worker: false } });
      try {
        for (const path of ['/redirects?locale=de', '/redirects?locale=en', '/menus/main?locale=de']) {
          const before = await t.get(path);
          const after = await call(app, 'GET', `/v1/spc_test${path}`, {
            authorization: `Bearer ${TOKENS.public}`,
          });
          expect(after.status).toBe(200);
          const { cv: _a, ...a } = after.body;
          const { cv: _b, ...b } = before.body;
          expect(a).toEqual(b);
        }
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await target.close();
      await t.close();
    }
  });
});
