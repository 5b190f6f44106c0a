import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle, exportBundleToDir } from '../src/bundle/export-bundle.js';
import { BundleError, importBundle } from '../src/bundle/import-bundle.js';
import { validateBundle } from '../src/bundle/validate-bundle.js';
import { hashToken } from '../src/auth/tokens.js';
import { getSpace, listSpaceIds } from '../src/store/spaces-repo.js';
import { DEMO_DIR } from '../src/cli/demo.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';
import { tempDir } from './helpers/temp-dirs.js';

type Mutate = (b: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests break bundles freely

/** Each bad bundle and the JSON path its first problem must name. */
const BAD: [string, Mutate, string][] = [
  ['wrong format', (b) => (b.format = 'folio-bundle@2'), 'format'],
  ['no default locale', (b) => (b.space.locales[0].default = false), 'space.locales'],
  ['unknown fallback', (b) => (b.space.locales[2].fallbacks = ['fr']), 'space.locales[2].fallbacks[0]'],
  ['bad space id', (b) => (b.space.id = 'demo'), 'space.id'],
  ['bad token prefix', (b) => (b.tokens[0].value = 'folio_prv_abcdefghijklmnop1234'), 'tokens[0].value'],
  ['token origin with path', (b) => (b.tokens[1].origins = ['https://a.example/x']), 'tokens[1].origins[0]'],
  ['scopes on a public token', (b) => (b.tokens[0].scopes = ['forms.read']), 'tokens[0].scopes'],
  ['unknown scope', (b) => (b.tokens[3].scopes = ['forms.read', 'root']), 'tokens[3].scopes'],
  ['scopes not a list', (b) => (b.tokens[3].scopes = 'forms.read'), 'tokens[3].scopes'],
  ['duplicate type', (b) => b.types.push({ ...b.types[0] }), 'types[6].key'],
  ['unknown field type', (b) => (b.types[0].fields[0].type = 'color'), 'types[0].fields[0].type'],
  [
    'block list names a page type',
    (b) => (b.types[0].fields[2].blocks = ['page']),
    'types[0].fields[2].blocks',
  ],
  ['duplicate entry id', (b) => (b.entries[1].id = 'ent_home'), 'entries[1].id'],
  ['unknown entry type', (b) => (b.entries[0].type = 'nope'), 'entries[0].type'],
  ['missing parent', (b) => (b.entries[4].parent = 'ent_missing'), 'entries[4].parent'],
  [
    'parent cycle',
    (b) => ((b.entries[2].parent = 'ent_blogstart'), (b.entries[2].type = 'folder')),
    'entries[2].parent',
  ],
  ['slug with slash', (b) => (b.entries[1].slug = 'a/b'), 'entries[1].slug'],
  [
    'duplicate path',
    (b) => ((b.entries[1].slugs = { de: 'hallo' }), (b.entries[1].parent = 'ent_blog')),
    'entries[4]',
  ],
  [
    'two entries of a global',
    (b) => b.entries.push({ ...b.entries[8], id: 'ent_footer2' }),
    'entries[10].type',
  ],
  ['text field holding a number', (b) => (b.entries[0].fields.title.de = 5), 'entries[0].fields.title.de'],
  [
    'localized field with unknown locale',
    (b) => (b.entries[0].fields.title.fr = 'x'),
    'entries[0].fields.title.fr',
  ],
  ['unknown field', (b) => (b.entries[0].fields.nope = 1), 'entries[0].fields.nope'],
  [
    'reference to a missing entry',
    (b) => (b.entries[0].fields.author = 'ent_zed'),
    'entries[0].fields.author',
  ],
  [
    'reference to a wrong type',
    (b) => (b.entries[0].fields.author = 'ent_about'),
    'entries[0].fields.author',
  ],
  ['asset not in bundle', (b) => (b.entries[6].fields.avatar = 'ast_nope'), 'entries[6].fields.avatar'],
  [
    'bad crop',
    (b) => (b.entries[0].fields.blocks[0].fields.image.crop.width = 0.9),
    'entries[0].fields.blocks[0].fields.image.crop',
  ],
  [
    'block of a disallowed type',
    (b) => (b.entries[0].fields.blocks[0].type = 'page'),
    'entries[0].fields.blocks[0].type',
  ],
  ['bad rich text', (b) => (b.entries[0].fields.body.en = { type: 'p' }), 'entries[0].fields.body.en'],
  ['bad link kind', (b) => (b.entries[0].fields.cta = { kind: 'ftp' }), 'entries[0].fields.cta'],
  [
    'dictionary text not a string',
    (b) => (b.entries[0].fields.labels.back.en = 1),
    'entries[0].fields.labels.back.en',
  ],
  [
    'published.firstAt after at',
    (b) => (b.entries[0].published = { at: '2026-01-01T00:00:00.000Z', firstAt: '2026-02-01T00:00:00.000Z' }),
    'entries[0].published.firstAt',
  ],
  ['asset path escaping the folder', (b) => (b.assets[0].file = '../etc/passwd'), 'assets[0].file'],
  [
    'release naming a missing entry',
    (b) => (b.releases[0].entries[0].id = 'ent_zed'),
    'releases[0].entries[0].id',
  ],
  ['menus not an array', (b) => (b.menus = {}), 'menus'],
  // These passed validation once and then crashed the import.
  ['fields an object', (b) => (b.types[0].fields = {}), 'types[0].fields'],
  ['blocks a string', (b) => (b.types[0].fields[2].blocks = 'hero'), 'types[0].fields[2].blocks'],
  ['a type without a kind', (b) => delete b.types[0].kind, 'types[0].kind'],
  ['a misspelt top-level member', (b) => (b.entires = []), 'entires'],
  ['a misspelt entry member', (b) => (b.entries[0].feilds = {}), 'entries[0].feilds'],
];

describe('bundle validation', () => {
  it('accepts the fixture and the demo bundle', () => {
    expect(validateBundle(fixtureBundle())).toMatchObject({ ok: true });
    const demo = JSON.parse(readFileSync(join(DEMO_DIR, 'bundle.json'), 'utf8'));
    const check = validateBundle(demo);
    expect(check.ok ? [] : check.problems).toEqual([]);
  });

  it.each(BAD)('rejects %s, naming the JSON path', (_name, mutate, path) => {
    const b = fixtureBundle();
    mutate(b);
    const check = validateBundle(b);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems.map((p) => p.path)).toContain(path);
  });
});

describe.each(ENGINES)('bundle import and export on %s', (engine) => {
  let env: TestEnv;
  let dir: string;
  beforeAll(async () => {
    env = await openTestEnv(engine);
    dir = await fixtureDir();
  });
  afterAll(async () => env.close());

  it('leaves the store unchanged when a bundle is bad', async () => {
    const b = fixtureBundle();
    b.assets = [{ id: 'ast_pic', file: 'missing.png' }];
    await expect(importBundle(env.store, env.blobs, b, { baseDir: dir })).rejects.toThrow(
      /assets\[0\]\.file/,
    );
    expect(await listSpaceIds(env.store)).toEqual([]);
  });

  it('imports a folder type without `fields` (the shape DESIGN.md shows), defaulting it to []', async () => {
    const b = fixtureBundle();
    const types = b.types as Record<string, unknown>[];
    const folder = types.find((t) => t.kind === 'folder');
    if (folder) delete folder.fields;
    const check = validateBundle(b);
    expect(check.ok && check.bundle.types.find((t) => t.kind === 'folder')?.fields).toEqual([]);
    // The normalised bundle is new objects: nothing of the input is handed on.
    expect(check.ok && check.bundle.types.find((t) => t.kind === 'folder')).not.toBe(folder);
    const own = await openTestEnv(engine);
    try {
      const result = await importBundle(own.store, own.blobs, b, { baseDir: dir });
      expect(result.counts.types).toBe(types.length);
    } finally {
      await own.close();
    }
  });

  it('rolls back a failure inside the transaction', async () => {
    const b = fixtureBundle();
    // Two tokens with the same value pass validation per token but break the unique hash index.
    (b.tokens as unknown[]).push({
      kind: 'public',
      hash: `sha256:${hashToken((b.tokens as { value: string }[])[0]!.value)}`,
    });
    await expect(importBundle(env.store, env.blobs, b, { baseDir: dir })).rejects.toThrow();
    expect(await listSpaceIds(env.store)).toEqual([]);
    expect(await env.store.db.selectFrom('entries').select('id').execute()).toEqual([]);
  });

  it('round-trips: the export of an import equals the input up to token values', async () => {
    const input = fixtureBundle();
    await importBundle(env.store, env.blobs, input, { baseDir: dir });
    const { bundle } = await exportBundle(env.store, 'spc_test');
    const expected = structuredClone(input) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test comparison
    expected.tokens = expected.tokens.map((t: { value: string; origins?: string[]; kind: string }) => ({
      kind: t.kind,
      hash: `sha256:${hashToken(t.value)}`,
      ...(t.origins ? { origins: t.origins } : {}),
    }));
    expected.space = { ...expected.space, ai: false, imagePresets: {} };
    expected.assets = [{ ...expected.assets[0], file: 'assets/ast_pic-pic.png', filename: 'pic.png' }];
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expected.entries.sort(byId);
    expected.tokens.sort((a: { kind: string; hash: string }, b: { kind: string; hash: string }) =>
      a.kind === b.kind ? (a.hash < b.hash ? -1 : 1) : a.kind < b.kind ? -1 : 1,
    );
    expect(bundle).toEqual(expected);
    // And the exported folder imports again (with --replace) to the same export.
    const out = tempDir('folio-export-');
    await exportBundleToDir(env.store, env.blobs, 'spc_test', out);
    const again = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8'));
    const before = (await getSpace(env.store, 'spc_test'))?.cv ?? 0;
    await importBundle(env.store, env.blobs, again, { baseDir: out, replace: true });
    expect((await exportBundle(env.store, 'spc_test')).bundle).toEqual(again);
    // cv keeps rising across a replace, and older cvs are gone rather than different.
    const space = await getSpace(env.store, 'spc_test');
    expect(space?.cv).toBe(before + 1);
    expect(space?.minCv).toBe(before + 1);
  });

  it('keeps a management token narrow through export and import (scopes)', async () => {
    const input = fixtureBundle();
    const narrow = 'folio_mgt_NarrowInboxToken000000000001';
    (input.tokens as unknown[]).push({
      kind: 'management',
      value: narrow,
      scopes: ['forms.read', 'forms.write'],
    });
    await importBundle(env.store, env.blobs, input, { baseDir: dir, replace: true });
    const { bundle } = await exportBundle(env.store, 'spc_test');
    const exported = bundle.tokens.find((t) => t.hash === `sha256:${hashToken(narrow)}`);
    expect(exported?.scopes).toEqual(['forms.write', 'forms.read']);
    // Tokens without scopes (every scope) export without the member, as before.
    expect(bundle.tokens.filter((t) => t.scopes !== undefined)).toHaveLength(1);
    const out = mkdtempSync(join(tmpdir(), 'folio-export-'));
    try {
      await exportBundleToDir(env.store, env.blobs, 'spc_test', out);
      const again = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8'));
      await importBundle(env.store, env.blobs, again, { baseDir: out, replace: true });
      const row = await env.store.db
        .selectFrom('tokens')
        .select('scopes')
        .where('hash', '=', hashToken(narrow))
        .executeTakeFirstOrThrow();
      expect(env.store.dialect.parseJson(row.scopes)).toEqual(['forms.write', 'forms.read']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite an existing space without replace', async () => {
    await expect(
      importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir }),
    ).rejects.toBeInstanceOf(BundleError);
  });

  it('starts a new token generation when it replaces a space, so instances drop cached tokens', async () => {
    const gen = async () =>
      Number(
        (
          await env.store.db
            .selectFrom('spaces')
            .select('token_gen')
            .where('id', '=', 'spc_test')
            .executeTakeFirstOrThrow()
        ).token_gen,
      );
    const before = await gen();
    const { cv } = await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir, replace: true });
    expect(await gen()).toBe(before + 1);
    // An import is a publish: a content.published event for its cv waits in the outbox.
    const events = await env.store.db
      .selectFrom('outbox')
      .select('payload')
      .where('space_id', '=', 'spc_test')
      .where('kind', '=', 'event')
      .execute();
    const published = events.map((e) =>
      env.store.dialect.parseJson<{ type: string; data: { cv: number } }>(e.payload),
    );
    expect(published).toContainEqual(expect.objectContaining({ type: 'content.published', data: { cv } }));
  });

  it('imports the demo bundle and round-trips it', async () => {
    const demo = JSON.parse(readFileSync(join(DEMO_DIR, 'bundle.json'), 'utf8'));
    await importBundle(env.store, env.blobs, demo, { baseDir: DEMO_DIR });
    const { bundle } = await exportBundle(env.store, demo.space.id);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- comparison of free-form JSON
    const strip = (b: any) => {
      const c = structuredClone(b);
      c.assets = c.assets
        .map((a: { file?: string; filename?: string; credit?: unknown; focal?: unknown }) => ({
          ...a,
          file: undefined,
          filename: undefined,
          credit: a.credit ?? undefined,
          focal: a.focal ?? undefined,
        }))
        .sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1));
      c.space = {
        ...c.space,
        ai: c.space.ai ?? false,
        imagePresets: c.space.imagePresets ?? {},
        timeZone: c.space.timeZone ?? 'UTC',
      };
      c.tokens = [];
      c.entries.sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1));
      return JSON.parse(JSON.stringify(c));
    };
    expect(strip(bundle)).toEqual(
      strip({
        tokens: [],
        lists: [],
        releases: [],
        menus: [],
        redirects: [],
        forms: [],
        webhooks: [],
        ...demo,
      }),
    );
  });
});
