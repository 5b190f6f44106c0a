import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { foldForSearch, searchTextOf } from '../src/lib/search-fold.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';
import { storeSubmission } from './helpers/submissions.js';

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
    await storeSubmission(env.store.db, {
      id,
      spaceId: SPACE,
      form,
      values,
      createdAt: new Date(Date.UTC(2026, 0, 1) + next * 1000).toISOString(),
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
      .where(await env.store.dialect.submissionSearch(env.store.db, foldForSearch(term)))
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  };

  it('reads the trigram index for a term of three characters or more', async () => {
    await add({ name: 'Grace Hopper' }, 'plan');
    // Planned outside the transaction: SQLite's one connection is the transaction's until it ends.
    const condition = await env.store.dialect.submissionSearch(env.store.db, 'hopper');
    const plan = await env.store.db.transaction().execute(async (tx) => {
      // A small table is cheaper to scan: with scans priced out, the plan shows that the index answers the
      // condition (without an index it would still scan).
      if (engine === 'postgres') await sql`set local enable_seqscan = off`.execute(tx);
      const query = tx.selectFrom('submissions').select('id').where(condition).compile();
      const explain = engine === 'postgres' ? 'explain' : 'explain query plan';
      const { rows } = await tx.executeQuery<Record<string, unknown>>({
        ...query,
        sql: `${explain} ${query.sql}`,
      });
      return rows.map((r) => String(r['QUERY PLAN'] ?? r['detail'])).join('\n');
    });
    expect(plan).toMatch(
      engine === 'postgres'
        ? /submissions_search_trgm/
        : // The index's candidates (read while planning) are looked up by key.
          /SEARCH r USING INTEGER PRIMARY KEY/,
    );
  });

  it('answers exactly what a substring test of the folded text answers, through inserts, changes and deletes', async () => {
    // Quotes, dollars (PostgreSQL writes the pattern into the statement), LIKE's own characters and its escape.
    const word = fc.stringMatching(/^[abcäÄ$q'\\%_ ]{1,8}$/);
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

  it.runIf(engine === 'sqlite')('keeps no trigram of a deleted text in the index pages', async () => {
    const id = await add({ name: 'Qzxv Wkjy' });
    // The index's pages as stored: a page that held the row's trigrams is rewritten without them.
    const pagesHolding = async (trigram: string) => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from submission_search_data where instr(block, cast(${trigram} as blob)) > 0`.execute(
        env.store.db,
      );
      return Number(rows[0]?.n);
    };
    expect(await pagesHolding('wkj')).toBeGreaterThan(0);
    await env.store.db.deleteFrom('submissions').where('id', '=', id).execute();
    expect(await pagesHolding('wkj')).toBe(0);
    expect(await search('wkjy')).toEqual([]);
  });
});
