import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { insertSubmission } from '../src/forms/submission/submissions-repo.js';
import { foldForSearch, searchTextOf } from '../src/lib/search-fold.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';

// The inbox's folded search reads a trigram index (migration 0031: pg_trgm on PostgreSQL, FTS5 trigram on SQLite):
// the index is what the plan reads, it follows every insert, change and delete of a submission (triggers on
// SQLite), its answers are exactly a substring test of the folded text, and on SQLite an erased text's trigrams
// leave the index's segments when deleted data is purged.

const SPACE = 'spc_test';
const FORM = 'search-index';

describe.each(ENGINES)('the inbox search index on %s', (engine) => {
  let env: TestEnv;
  let next = 0;
  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
  });
  afterAll(async () => env.close());

  const add = async (values: Record<string, unknown>, form = FORM): Promise<string> => {
    const id = `sub_ix${String(next++).padStart(6, '0')}`;
    await insertSubmission(env.store.db, {
      id,
      spaceId: SPACE,
      form,
      folder: 'inbox',
      values,
      page: null,
      locale: 'en',
      userAgent: null,
      consent: {},
      uniqueKey: null,
      createdAt: new Date(Date.UTC(2026, 0, 1) + next * 1000).toISOString(),
      deleteAfter: '2099-01-01T00:00:00.000Z',
    });
    return id;
  };

  /** The ids whose folded text holds `term`, through the dialect's condition (the index where it applies). */
  const search = async (term: string, form = FORM): Promise<string[]> => {
    const rows = await env.store.db
      .selectFrom('submissions')
      .select('id')
      .where('space_id', '=', SPACE)
      .where('form_key', '=', form)
      .where(env.store.dialect.submissionTextHas(foldForSearch(term)))
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  };

  it('reads the trigram index for a term of three characters or more', async () => {
    await add({ name: 'Grace Hopper' }, 'plan');
    const plan = await env.store.db.transaction().execute(async (tx) => {
      // A small table is cheaper to scan: with scans priced out, the plan shows that the index answers the
      // condition (without an index it would still scan).
      if (engine === 'postgres') await sql`set local enable_seqscan = off`.execute(tx);
      const query = tx
        .selectFrom('submissions')
        .select('id')
        .where(env.store.dialect.submissionTextHas('hopper'))
        .compile();
      const explain = engine === 'postgres' ? 'explain' : 'explain query plan';
      const { rows } = await tx.executeQuery<Record<string, unknown>>({
        ...query,
        sql: `${explain} ${query.sql}`,
      });
      return rows.map((r) => String(r['QUERY PLAN'] ?? r['detail'])).join('\n');
    });
    expect(plan).toMatch(engine === 'postgres' ? /submissions_search_trgm/ : /VIRTUAL TABLE INDEX \d+:M/);
  });

  it('answers exactly what a substring test of the folded text answers, through inserts, changes and deletes', async () => {
    const word = fc.stringMatching(/^[abcäÄ ]{1,8}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), word), { maxLength: 4 }),
        word,
        async (texts, deletes, changes, term) => {
          const form = `prop${next}`;
          const live = new Map<string, string>();
          for (const text of texts) live.set(await add({ text }, form), text);
          const ids = [...live.keys()];
          for (const n of deletes) {
            const id = ids[n % ids.length] ?? '';
            await env.store.db.deleteFrom('submissions').where('id', '=', id).execute();
            live.delete(id);
          }
          for (const [n, text] of changes) {
            const id = ids[n % ids.length] ?? '';
            // What the reindex step's backfill does: a new folded copy of the same row.
            await env.store.db
              .updateTable('submissions')
              .set({ search_text: searchTextOf({ text }) })
              .where('id', '=', id)
              .execute();
            if (live.has(id)) live.set(id, text);
          }
          const folded = foldForSearch(term);
          const expected = [...live]
            .filter(([, text]) => searchTextOf({ text }).includes(folded))
            .map(([id]) => id)
            .sort();
          expect(await search(term, form)).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('finds a name whatever its case and accents, and no longer once it is deleted', async () => {
    const id = await add({ name: 'Jürgen Müller-Lüdenscheidt' });
    expect(await search('MULLER-LUDEN')).toContain(id);
    await env.store.db.deleteFrom('submissions').where('id', '=', id).execute();
    expect(await search('MULLER-LUDEN')).not.toContain(id);
  });

  it.runIf(engine === 'sqlite')(
    'keeps no trigram of a deleted text once deleted data is purged',
    async () => {
      const id = await add({ name: 'Qzxv Wkjy' });
      const terms = async () => {
        await sql`create virtual table if not exists temp.search_terms using fts5vocab(main, submission_search, 'row')`.execute(
          env.store.db,
        );
        const { rows } = await sql<{
          term: string;
        }>`select term from temp.search_terms where term in ('qzx', 'zxv', 'wkj')`.execute(env.store.db);
        return rows.map((r) => r.term).sort();
      };
      expect(await terms()).toEqual(['qzx', 'wkj', 'zxv']);
      await env.store.db.deleteFrom('submissions').where('id', '=', id).execute();
      await env.store.dialect.purgeDeleted(env.store.db, ['submissions']);
      expect(await terms()).toEqual([]);
    },
  );
});
