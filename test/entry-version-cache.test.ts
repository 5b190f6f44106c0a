import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { readEntriesAtCached, setEntryCacheBytes } from '../src/store/entry-version-cache.js';
import { readEntriesAt } from '../src/store/log-repo.js';
import type { Store } from '../src/store/open-store.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { ENGINES } from './helpers/engines.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';

// The entry cache hands out parsed published versions shared by every request: these tests check it
// never answers another version than the store would, at the current cv and at pinned ones.
describe.each(ENGINES)('entry version cache (%s)', (engine) => {
  let t: ManagementApp;
  const ids = ['ent_home', 'ent_post', 'ent_alice', 'ent_bob', 'ent_draftonly', 'ent_nope'];
  const cvNow = async () => (await getSpace(t.store, 'spc_test'))?.cv ?? 0;

  beforeAll(async () => {
    t = await openManagementApp(engine);
  });
  afterAll(async () => t.close());

  it('answers exactly what the store answers, and the second read shares the parsed document', async () => {
    const cv = await cvNow();
    const first = await readEntriesAtCached(t.store, 'spc_test', ids, cv);
    expect(first).toEqual(await readEntriesAt(t.store, 'spc_test', ids, cv));
    expect([...first.keys()].sort()).toEqual(['ent_alice', 'ent_bob', 'ent_home', 'ent_post']);
    const second = await readEntriesAtCached(t.store, 'spc_test', ids, cv);
    expect(second.get('ent_post')).toBe(first.get('ent_post'));
  });

  it('freezes what it shares, deeply: a renderer that changed a document would throw, not corrupt it', async () => {
    const cv = await cvNow();
    const post = (await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], cv)).get('ent_post');
    if (!post) throw new Error('ent_post missing');
    expect(Object.isFrozen(post)).toBe(true);
    expect(Object.isFrozen(post.fields)).toBe(true);
    expect(() => {
      (post.tags as string[]).push('x');
    }).toThrow(TypeError);
  });

  it('follows a publish, and a pinned cv keeps its own version', async () => {
    const before = await cvNow();
    const old = (await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], before)).get('ent_post');
    expect(old?.name).toBe('Hello');
    expect((await t.api('PATCH', '/entries/ent_post', { name: 'Hello again' })).status).toBe(200);
    expect((await t.api('POST', '/entries/ent_post/publish')).status).toBe(200);
    const after = await cvNow();
    expect(after).toBeGreaterThan(before);
    const now = (await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], after)).get('ent_post');
    expect(now?.name).toBe('Hello again');
    // The pinned cv reads its own version from the store; the cache keeps the newer one current reads use.
    const pinned = (await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], before)).get('ent_post');
    expect(pinned).toEqual(old);
    expect(pinned?.name).toBe('Hello');
    expect((await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], after)).get('ent_post')).toBe(now);
    // Over HTTP too: the current read and a pinned one.
    expect((await t.get('/entries/ent_post')).body.entry.name).toBe('Hello again');
    expect((await t.get(`/entries/ent_post?cv=${before}`)).body.entry.name).toBe('Hello');
  });

  /** The test store with its queries counted (a Kysely plugin sees every query) and an entry cache of its own. */
  function counted(): { store: Store; queries: () => number } {
    let n = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        n++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { store: { ...t.store, db: t.store.db.withPlugin(counting) }, queries: () => n };
  }

  it('reads a cold entry with one query and a warm one, hinted or not, with none', async () => {
    const { store, queries } = counted();
    const cv = await cvNow();
    const read = await readEntriesAtCached(store, 'spc_test', ['ent_alice', 'ent_bob'], cv);
    expect(queries()).toBe(1);
    const again = await readEntriesAtCached(store, 'spc_test', ['ent_alice', 'ent_bob'], cv);
    expect(again.get('ent_bob')).toBe(read.get('ent_bob'));
    const rows = await t.store.db
      .selectFrom('entry_versions')
      .select(['entry_id', 'cv_from'])
      .where('space_id', '=', 'spc_test')
      .where('entry_id', 'in', ['ent_alice', 'ent_bob'])
      .where('cv_to', 'is', null)
      .execute();
    const hints = new Map(rows.map((r) => [r.entry_id, Number(r.cv_from)]));
    const hinted = await readEntriesAtCached(store, 'spc_test', ['ent_alice', 'ent_bob'], cv, hints);
    expect(hinted.get('ent_alice')).toBe(read.get('ent_alice'));
    expect(queries()).toBe(1);
  });

  it('knows from the change log which cached entries a publish left alone, and asks for the rest', async () => {
    const { store, queries } = counted();
    const cv1 = await cvNow();
    const ids = ['ent_alice', 'ent_home', 'ent_post'];
    const first = await readEntriesAtCached(store, 'spc_test', ids, cv1);
    expect(first.get('ent_post')?.name).toBeDefined();

    // A publish of one entry: the others are still the versions held, the published one is read anew.
    expect((await t.api('PATCH', '/entries/ent_post', { name: 'Hello, third' })).status).toBe(200);
    expect((await t.api('POST', '/entries/ent_post/publish')).status).toBe(200);
    const cv2 = await cvNow();
    let before = queries();
    const second = await readEntriesAtCached(store, 'spc_test', ids, cv2);
    expect(queries() - before).toBe(2); // the change log's extension, then ent_post alone
    expect(second.get('ent_alice')).toBe(first.get('ent_alice'));
    expect(second.get('ent_home')).toBe(first.get('ent_home'));
    expect(second.get('ent_post')?.name).toBe('Hello, third');
    before = queries();
    expect((await readEntriesAtCached(store, 'spc_test', ids, cv2)).get('ent_post')).toBe(
      second.get('ent_post'),
    );
    expect(queries() - before).toBe(0);

    // Unpublished: gone at the new cv, though the cache still holds it.
    expect((await t.api('POST', '/entries/ent_alice/unpublish')).status).toBe(200);
    const cv3 = await cvNow();
    const third = await readEntriesAtCached(store, 'spc_test', ids, cv3);
    expect([...third.keys()].sort()).toEqual(['ent_home', 'ent_post']);
    expect(third.get('ent_home')).toBe(first.get('ent_home'));
    expect(await readEntriesAtCached(store, 'spc_test', ids, cv3)).toEqual(
      await readEntriesAt(t.store, 'spc_test', ids, cv3),
    );

    // Pinned older cvs still read their own versions; a wrong hint is only a miss.
    for (const cv of [cv1, cv2, cv1])
      expect(await readEntriesAtCached(store, 'spc_test', ids, cv, new Map([['ent_post', 999_999]]))).toEqual(
        await readEntriesAt(t.store, 'spc_test', ids, cv),
      );
    expect((await t.api('POST', '/entries/ent_alice/publish')).status).toBe(200);
    const cv4 = await cvNow();
    expect(await readEntriesAtCached(store, 'spc_test', ids, cv4)).toEqual(
      await readEntriesAt(t.store, 'spc_test', ids, cv4),
    );
  });

  it('serves lists from hinted versions with the current content after a publish', async () => {
    expect((await t.api('PATCH', '/entries/ent_bob', { name: 'Robert' })).status).toBe(200);
    expect((await t.api('POST', '/entries/ent_bob/publish')).status).toBe(200);
    const list = await t.get('/entries?type=author&sort=name');
    expect(list.status).toBe(200);
    expect(list.body.items.map((e: { name: string }) => e.name)).toEqual(['Alice', 'Robert']);
  });

  it('reads thousands of ids in chunks, the cached ones among them, as the store answers them', async () => {
    const cv = await cvNow();
    const many = [...Array.from({ length: 2500 }, (_, i) => `ent_x${i}`), ...ids];
    const read = await readEntriesAtCached(t.store, 'spc_test', many, cv);
    expect(read).toEqual(await readEntriesAt(t.store, 'spc_test', many, cv));
    expect(read.size).toBe(4);
  });

  it('is off with a budget of 0, and an entry over the budget is read but not kept', async () => {
    const cv = await cvNow();
    setEntryCacheBytes(t.store, 0);
    const a = await readEntriesAtCached(t.store, 'spc_test', ['ent_home'], cv);
    const b = await readEntriesAtCached(t.store, 'spc_test', ['ent_home'], cv);
    expect(a.get('ent_home')).toEqual(b.get('ent_home'));
    expect(a.get('ent_home')).not.toBe(b.get('ent_home'));
    expect(Object.isFrozen(a.get('ent_home'))).toBe(false);
    setEntryCacheBytes(t.store, 64);
    const c = await readEntriesAtCached(t.store, 'spc_test', ['ent_home'], cv);
    const d = await readEntriesAtCached(t.store, 'spc_test', ['ent_home'], cv);
    expect(c.get('ent_home')?.id).toBe('ent_home');
    expect(c.get('ent_home')).not.toBe(d.get('ent_home'));
    setEntryCacheBytes(t.store, 1024 * 1024);
  });
});

describe('ENTRY_CACHE_MB', () => {
  it('defaults to 64, takes 0 (off) and refuses what is not a whole number of megabytes', () => {
    expect(loadConfig({}).entryCacheMb).toBe(64);
    expect(loadConfig({ ENTRY_CACHE_MB: '0' }).entryCacheMb).toBe(0);
    expect(loadConfig({ ENTRY_CACHE_MB: '256' }).entryCacheMb).toBe(256);
    for (const bad of ['lots', '1.5', '-1', '70000'])
      expect(() => loadConfig({ ENTRY_CACHE_MB: bad })).toThrow(ConfigError);
  });

  it('is applied by the app: 0 serves every read from the store, unshared', async () => {
    const t = await openManagementApp('sqlite', { entryCacheMb: 0 });
    try {
      const cv = (await getSpace(t.store, 'spc_test'))?.cv ?? 0;
      const a = await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], cv);
      const b = await readEntriesAtCached(t.store, 'spc_test', ['ent_post'], cv);
      expect(a.get('ent_post')).toEqual(b.get('ent_post'));
      expect(a.get('ent_post')).not.toBe(b.get('ent_post'));
      expect((await t.get('/entries/ent_post')).body.entry.name).toBe('Hello');
    } finally {
      await t.close();
    }
  });
});
