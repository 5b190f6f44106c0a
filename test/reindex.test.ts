import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { publishEntries } from '../src/content/publish-entries.js';
import { LIST_REINDEX } from '../src/delivery/list/list-write-repo.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { reindexIfDue, reindexVersion } from '../src/store/reindex.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';
import { undoMigrationsFrom } from './helpers/undo-migrations.js';

// Migrations are frozen; the list tables are rebuilt from the published log by a versioned reindex step that
// runs after them (src/store/reindex.ts, `LIST_REINDEX`). A store migrated past 0007 by earlier code (whose
// 0007 rebuilt the tables itself) must not rebuild again; a store where the step is due rebuilds once, and
// ends with the same list tables.

/** Every list row, keyed by what a rebuild keeps (ids are renumbered), in one order on both engines. */
async function listTables(store: Store) {
  const entries = await store.db
    .selectFrom('list_entries')
    .select([
      'space_id',
      'entry_id',
      'cv_from',
      'cv_to',
      'type',
      'kind',
      'parent_id',
      'position',
      'name',
      'published_at',
      'first_published_at',
      'paths',
      'noindex',
    ])
    .orderBy('space_id')
    .orderBy('entry_id')
    .orderBy('cv_from')
    .execute();
  const values = await store.db
    .selectFrom('list_values as v')
    .innerJoin('list_entries as e', 'e.id', 'v.vid')
    .select(['e.space_id', 'e.entry_id', 'e.cv_from', 'v.cv_to', 'v.key', 'v.loc', 'v.str', 'v.num'])
    .orderBy('e.space_id')
    .orderBy('e.entry_id')
    .orderBy('e.cv_from')
    .orderBy('v.key')
    .orderBy('v.loc')
    .orderBy('v.str')
    .orderBy('v.num')
    .execute();
  const rows = await store.db
    .selectFrom('list_rows as r')
    .innerJoin('list_entries as e', 'e.id', 'r.vid')
    .select(['e.space_id', 'e.entry_id', 'e.cv_from', 'r.cv_to', 'r.loc', 'r.s1', 'r.s2', 'r.s3', 'r.s4'])
    .select(['r.n1', 'r.n2', 'r.n3', 'r.n4'])
    .orderBy('e.space_id')
    .orderBy('e.entry_id')
    .orderBy('e.cv_from')
    .orderBy('r.loc')
    .execute();
  const searchTable = store.dialect.matchesAreRows ? 'list_search' : 'list_fts';
  const search = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(searchTable)}`.execute(store.db);
  const num = (v: unknown) => (v === null ? null : Number(v));
  return {
    entries: entries.map((e) => ({
      ...e,
      cv_from: num(e.cv_from),
      cv_to: num(e.cv_to),
      position: num(e.position),
      // JSON text: a rebuild reads the snapshot back from the log (jsonb on PostgreSQL orders keys its own way).
      paths: e.paths === null ? null : (JSON.parse(e.paths) as unknown),
    })),
    values: values.map((v) => ({ ...v, cv_from: num(v.cv_from), cv_to: num(v.cv_to), num: num(v.num) })),
    rows: rows.map((r) => ({ ...r, cv_from: num(r.cv_from), cv_to: num(r.cv_to) })),
    search: Number(search.rows[0]?.n),
  };
}

describe.each(ENGINES)('reindex steps on %s', (engine) => {
  let env: TestEnv;
  const others: Store[] = [];
  afterEach(async () => {
    for (const s of others.splice(0)) await s.close();
    await env.close();
  });

  /** A store with history: the fixture imported, then one entry published again (a closed version). */
  async function published(): Promise<TestEnv> {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    await publishEntries(env.store, 'spc_test', ['ent_post']);
    return env;
  }

  async function reopen(steps = [LIST_REINDEX]): Promise<Store> {
    const store = await openStore(env.storeConfig, { reindex: steps });
    others.push(store);
    return store;
  }

  /** Makes the `lists` step due, as 0007 leaves a store that had published versions before it. */
  const due = (store: Store) => sql`delete from folio_reindex where step = 'lists'`.execute(store.db);

  it('records version 1 in a new store (0007 finds no published version); later versions run once', async () => {
    env = await openTestEnv(engine);
    expect(await reindexVersion(env.store.db, 'lists')).toBe(1);
    expect(await reindexIfDue(env.store.db, env.store.dialect, [{ ...LIST_REINDEX, version: 1 }])).toEqual(
      [],
    );
    // Version 2 (block text in the full text) rebuilds every store once, a new one's empty tables too.
    expect(LIST_REINDEX.version).toBeGreaterThan(1);
    expect(await reindexIfDue(env.store.db, env.store.dialect, [LIST_REINDEX])).toEqual(['lists']);
    expect(await reindexIfDue(env.store.db, env.store.dialect, [LIST_REINDEX])).toEqual([]);
  });

  it('runs a due step once, records its version, and then runs it no more', async () => {
    env = await openTestEnv(engine);
    await due(env.store);
    expect(await reindexVersion(env.store.db, 'lists')).toBe(0);
    expect(await reindexIfDue(env.store.db, env.store.dialect, [LIST_REINDEX])).toEqual(['lists']);
    expect(await reindexVersion(env.store.db, 'lists')).toBe(LIST_REINDEX.version);
    expect(await reindexIfDue(env.store.db, env.store.dialect, [LIST_REINDEX])).toEqual([]);
  });

  it('rebuilds the list tables of a store where the step is due to what publishing wrote', async () => {
    await published();
    const before = await listTables(env.store);
    expect(before.entries.filter((e) => e.entry_id === 'ent_post')).toHaveLength(2);
    expect(before.values.length).toBeGreaterThan(0);
    expect(before.search).toBeGreaterThan(0);
    // A row the rebuild replaces: if the step runs, the name comes back from the log.
    await env.store.db
      .updateTable('list_entries')
      .set({ name: 'stale' })
      .where('entry_id', '=', 'ent_post')
      .execute();
    await due(env.store);
    const store = await reopen();
    expect(await reindexVersion(store.db, 'lists')).toBe(LIST_REINDEX.version);
    expect(await listTables(store)).toEqual(before);
    // Opening again changes nothing (the version is recorded): still the same tables.
    await store.db
      .updateTable('list_entries')
      .set({ name: 'kept' })
      .where('entry_id', '=', 'ent_post')
      .execute();
    const again = await reopen();
    expect(
      (await listTables(again)).entries.filter((e) => e.entry_id === 'ent_post').map((e) => e.name),
    ).toEqual(['kept', 'kept']);
  });

  it('leaves the list tables of a store migrated past 0007 before reindex steps existed', async () => {
    await published();
    // What the earlier code left: 0007 rebuilt the tables itself and made no `folio_reindex`; no 0014.
    await env.store.db.schema.dropTable('folio_reindex').execute();
    // Nor anything after 0014: undo the later migrations too.
    await undoMigrationsFrom(env.store, '0015');
    await sql`delete from folio_migration where name >= '0014'`.execute(env.store.db);
    await env.store.db
      .updateTable('list_entries')
      .set({ name: 'kept' })
      .where('entry_id', '=', 'ent_post')
      .execute();
    const before = await listTables(env.store);
    // The step as 0014 knew it (version 1): what 0014 records must not make it run.
    const store = await reopen([{ ...LIST_REINDEX, version: 1 }]);
    expect(await reindexVersion(store.db, 'lists')).toBe(1);
    expect(await listTables(store)).toEqual(before);
  });
});
