import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySnapshot } from '../src/content/model.js';
import {
  closeEntry,
  putDocVersion,
  putEntryVersion,
  readDocsAt,
  readEntriesAt,
  pruneBefore,
} from '../src/store/log-repo.js';
import { readEntriesAtCached, readEntryAtPathCached } from '../src/store/entry-version-cache.js';
import { migrateToLatest } from '../src/store/migrations/index.js';
import { withPublish } from '../src/content/publish-log.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { findTokenByHash, insertToken } from '../src/store/tokens-repo.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import type { Kysely } from 'kysely';

const snapshot = (id: string, title: string, path: string): EntrySnapshot => ({
  id,
  type: 'page',
  name: title,
  slug: path.slice(1),
  slugs: {},
  parentId: null,
  position: 0,
  tags: [],
  fields: { title },
  publishedAt: '2026-01-01T00:00:00.000Z',
  firstPublishedAt: '2026-01-01T00:00:00.000Z',
  paths: { en: path },
});

/** One contract, both engines (STYLE.md rule 3): the same calls give the same answers. */
describe.each(ENGINES)('store contract on %s', (engine) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await openTestEnv(engine);
    await env.store.db
      .insertInto('spaces')
      .values({
        id: 'spc_a',
        name: 'A',
        settings: JSON.stringify({ locales: [{ code: 'en', default: true }] }),
        cv: 0,
        min_cv: 0,
        created_at: 'now',
      })
      .execute();
  });
  afterAll(async () => env.close());

  it('migrates idempotently', async () => {
    await migrateToLatest(env.store.db as Kysely<unknown>, env.store.dialect);
    await env.store.ping();
  });

  it('bumps cv once per publish and serialises concurrent publishes', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => withPublish(env.store, 'spc_a', async (_tx, cv) => cv)),
    );
    expect(results.map((r) => r.cv).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await getSpace(env.store, 'spc_a'))?.cv).toBe(8);
  });

  it('rolls a failed publish back, cv included', async () => {
    await expect(
      withPublish(env.store, 'spc_a', async (tx, cv) => {
        await putEntryVersion(tx, 'spc_a', cv, snapshot('ent_x', 'X', '/x'), 'page');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await getSpace(env.store, 'spc_a'))?.cv).toBe(8);
    expect((await readEntriesAt(env.store, 'spc_a', ['ent_x'], 9)).size).toBe(0);
  });

  it('keeps every version visible exactly at its cvs', async () => {
    const v1 = (
      await withPublish(env.store, 'spc_a', (tx, cv) =>
        putEntryVersion(tx, 'spc_a', cv, snapshot('ent_1', 'one', '/one'), 'page'),
      )
    ).cv;
    const v2 = (
      await withPublish(env.store, 'spc_a', (tx, cv) =>
        putEntryVersion(tx, 'spc_a', cv, snapshot('ent_1', 'two', '/Two'), 'page'),
      )
    ).cv;
    const v3 = (await withPublish(env.store, 'spc_a', (tx, cv) => closeEntry(tx, 'spc_a', 'ent_1', cv))).cv;
    const title = async (cv: number) =>
      (await readEntriesAt(env.store, 'spc_a', ['ent_1'], cv)).get('ent_1')?.fields.title;
    expect([await title(v1 - 1), await title(v1), await title(v2), await title(v3)]).toEqual([
      undefined,
      'one',
      'two',
      undefined,
    ]);
    // The entry cache answers as the log does, at every cv, read in any order (cached versions included).
    for (const cv of [v2, v1, v3, v1 - 1, v2])
      expect((await readEntriesAtCached(env.store, 'spc_a', ['ent_1'], cv)).get('ent_1')?.fields.title).toBe(
        await title(cv),
      );
    const atPath = async (path: string, cv: number) =>
      (await readEntryAtPathCached(env.store, 'spc_a', 'en', path, cv))?.fields.title ?? null;
    expect(await atPath('/one', v1)).toBe('one');
    expect(await atPath('/one', v2)).toBeNull();
    expect(await atPath('/two/', v2)).toBe('two');
    expect(await atPath('/TWO', v2)).toBe('two');
    expect(await atPath('/one', v1)).toBe('one');
    expect(await atPath('/two', v3)).toBeNull();
  });

  it('replaces a version written twice in one publish', async () => {
    const { cv } = await withPublish(env.store, 'spc_a', async (tx, cv) => {
      await putDocVersion(tx, 'spc_a', cv, 'list', 'colors', { v: 1 });
      await putDocVersion(tx, 'spc_a', cv, 'list', 'colors', { v: 2 });
    });
    expect((await readDocsAt(env.store, 'spc_a', 'list', ['colors'], cv)).get('colors')).toEqual({ v: 2 });
    const rows = await env.store.db
      .selectFrom('doc_versions')
      .selectAll()
      .where('key', '=', 'colors')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('prunes closed history and records the oldest kept cv', async () => {
    const space = await getSpace(env.store, 'spc_a');
    await env.store.db.transaction().execute((tx) => pruneBefore(tx, 'spc_a', space?.cv ?? 0));
    expect((await getSpace(env.store, 'spc_a'))?.minCv).toBe(space?.cv);
    const closed = await env.store.db
      .selectFrom('entry_versions')
      .select('cv_to')
      .where('space_id', '=', 'spc_a')
      .execute();
    expect(closed.every((r) => r.cv_to === null || Number(r.cv_to) > (space?.cv ?? 0))).toBe(true);
  });

  it('prunes history older than keepVersions as it publishes', async () => {
    env.store.keepVersions = 2;
    try {
      let last = 0;
      for (let i = 0; i < 4; i++) {
        last = (
          await withPublish(env.store, 'spc_a', (tx, cv) =>
            putEntryVersion(tx, 'spc_a', cv, snapshot('ent_k', `v${i}`, '/k'), 'page'),
          )
        ).cv;
      }
      const space = await getSpace(env.store, 'spc_a');
      // Pruned on an even cv at most two behind; never the current one.
      expect(space?.minCv).toBeGreaterThanOrEqual(last - 3);
      expect(space?.minCv).toBeLessThan(last);
      const kept = await readEntriesAt(env.store, 'spc_a', ['ent_k'], last);
      expect(kept.get('ent_k')?.fields.title).toBe('v3');
    } finally {
      env.store.keepVersions = 1000;
    }
  });

  it('finds tokens by hash only', async () => {
    await insertToken(env.store.db, {
      id: 'tok_1',
      spaceId: 'spc_a',
      kind: 'public',
      hash: 'ab'.repeat(32),
      hint: 'h',
      name: null,
      origins: ['https://a.example'],
      createdAt: 'now',
    });
    expect((await findTokenByHash(env.store, 'ab'.repeat(32)))?.origins).toEqual(['https://a.example']);
    expect(await findTokenByHash(env.store, 'cd'.repeat(32))).toBeNull();
  });
});
