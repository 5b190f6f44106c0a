// The dependency index `/sync` reads backwards (entry_deps): written with every publish in its transaction,
// versioned like the log, and rebuilt for versions that have none (a store from before it, or versions an older
// binary wrote), with the same rows a publish writes. On both engines.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store.js';
import { reindexIfDue } from '../src/store/reindex.js';
import { DEPS_REINDEX } from '../src/sync/deps-hooks.js';
import { edgesInto } from '../src/sync/deps-repo.js';
import { ENGINES } from './helpers/engines.js';
import { type ManagementApp, openManagementApp } from './helpers/management.js';
import { undoMigrationsFrom } from './helpers/undo-migrations.js';

type Row = {
  entry_id: string;
  cv_from: number;
  cv_to: number | null;
  kind: string;
  target: string;
  field: string;
};

describe.each(ENGINES)('the dependency index on %s', (engine) => {
  let t: ManagementApp;
  beforeAll(async () => {
    t = await openManagementApp(engine, { worker: false });
  });
  afterAll(async () => t?.close());

  const rows = async (): Promise<Row[]> => {
    const { rows } = await sql<Row>`select entry_id, cv_from, cv_to, kind, target, field from entry_deps
      order by entry_id, cv_from, kind, target, field`.execute(t.store.db);
    return rows.map((r) => ({
      ...r,
      cv_from: Number(r.cv_from),
      cv_to: r.cv_to === null ? null : Number(r.cv_to),
    }));
  };
  const cvNow = async (): Promise<number> => (await t.get('/status')).body.cv;

  it('names what each version links, references (by field), shows and embeds', async () => {
    const home = (await rows()).filter((r) => r.entry_id === 'ent_home');
    expect(home.map((r) => `${r.kind} ${r.field} ${r.target}`).sort()).toEqual(
      [
        'version  ',
        // The rich text links /about; `cta` links the post.
        'link  ent_about',
        'link  ent_post',
        'ref author ent_alice',
        'ref related ent_about',
        'ref related ent_draftonly',
        'asset  ast_pic',
        'form  contact',
      ].sort(),
    );
  });

  it('follows publishing: a new version closes the old rows, an unpublish closes them', async () => {
    const before = await cvNow();
    expect((await t.api('PATCH', '/entries/ent_home', { fields: { cta: null } })).status).toBe(200);
    expect((await t.api('POST', '/entries/ent_home/publish')).status).toBe(200);
    const after = await cvNow();
    const linkers = async (cv: number) =>
      (await edgesInto(t.store, 'spc_test', { targets: ['ent_post'], kinds: ['link'] }, cv, 100)).map(
        (e) => e.source,
      );
    expect(await linkers(before)).toEqual(['ent_home']);
    expect(await linkers(after)).toEqual([]);
    expect((await t.api('POST', '/entries/ent_alice/unpublish')).status).toBe(200);
    const open = (await rows()).filter((r) => r.entry_id === 'ent_alice' && r.cv_to === null);
    expect(open).toEqual([]);
  });

  it('rebuilds the rows of versions that have none, exactly as publishing wrote them', async () => {
    const written = await rows();
    expect(written.length).toBeGreaterThan(10);
    // Versions an older binary wrote have no rows at all.
    await sql`delete from entry_deps where entry_id in ('ent_home', 'ent_post')`.execute(t.store.db);
    expect(await reindexIfDue(t.store.db, t.store.dialect, [{ ...DEPS_REINDEX, version: 99 }])).toEqual([
      'entry-deps',
    ]);
    expect(await rows()).toEqual(written);
  });

  it('fills the index of a store from before it on its first start', async () => {
    const written = await rows();
    await undoMigrationsFrom(t.store, '0028');
    await sql`delete from folio_reindex where step = 'entry-deps'`.execute(t.store.db);
    const reopened = await openStore(t.storeConfig, { reindex: [DEPS_REINDEX] });
    try {
      const { rows: again } =
        await sql<Row>`select entry_id, cv_from, cv_to, kind, target, field from entry_deps
        order by entry_id, cv_from, kind, target, field`.execute(reopened.db);
      expect(
        again.map((r) => ({
          ...r,
          cv_from: Number(r.cv_from),
          cv_to: r.cv_to === null ? null : Number(r.cv_to),
        })),
      ).toEqual(written);
    } finally {
      await reopened.close();
    }
  });
});
