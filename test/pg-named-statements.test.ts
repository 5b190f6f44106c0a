import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { prepared } from '../src/store/dialect/pg-named-statements.js';
import { readEntriesAtCached, readEntryAtPathCached } from '../src/store/entry-version-cache.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { readEntriesAt } from '../src/store/log-repo.js';
import { getSpace } from '../src/store/spaces-repo.js';
import { randomBase62 } from '../src/lib/ids.js';
import { DATABASE_URL, dropSchema } from './helpers/engines.js';
import { openManagementApp } from './helpers/management.js';

/** The prepared statements of the connection the callback runs on, after it ran. */
async function preparedAfter(store: Store, run: (db: Store['db']) => Promise<unknown>) {
  return store.db.connection().execute(async (db) => {
    await run(db);
    const { rows } = await sql<{ name: string; statement: string; generic_plans: number | string }>`
      select name, statement, generic_plans from pg_prepared_statements order by name`.execute(db);
    return rows;
  });
}

describe('named statements on PostgreSQL (issue 17)', () => {
  const schemas: string[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const s of schemas) await dropSchema(s);
  });
  async function open(namedStatements?: boolean): Promise<Store> {
    const schema = `t_${randomBase62(12).toLowerCase()}`;
    schemas.push(schema);
    const store = await openStore({
      engine: 'postgres',
      url: DATABASE_URL,
      schema,
      ...(namedStatements === undefined ? {} : { namedStatements }),
    });
    stores.push(store);
    return store;
  }

  it('runs a marked statement named, once parsed per connection, and leaves unmarked ones unnamed', async () => {
    const store = await open();
    const rows = await preparedAfter(store, async (db) => {
      for (let n = 0; n < 8; n++) {
        const marked = await prepared(sql<{ n: number }>`select ${n}::int + 1 as n`).execute(db);
        expect(marked.rows).toEqual([{ n: n + 1 }]);
        await sql`select ${n}::int + 2 as unmarked`.execute(db);
      }
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toMatch(/^folio_[\w-]{27}$/);
    expect(rows[0]?.statement).toContain('::int + 1 as n');
    // Eight executions: past the five custom plans PostgreSQL tries first, it keeps the generic one.
    expect(Number(rows[0]?.generic_plans)).toBeGreaterThan(0);
  });

  it('names nothing when turned off', async () => {
    const store = await open(false);
    const rows = await preparedAfter(store, (db) => prepared(sql`select 1 as n`).execute(db));
    expect(rows).toEqual([]);
  });

  it('serves by-path and small entry reads through named statements, with the same answers as unnamed ones', async () => {
    const t = await openManagementApp('postgres');
    try {
      const cv = (await getSpace(t.store, 'spc_test'))?.cv ?? 0;
      const { byPath, byId, rows } = await t.store.db.connection().execute(async (db) => {
        // The store on one connection, so its prepared statements can be seen (a cache of its own, so both ask).
        const pinned: Store = { ...t.store, db };
        const path = await readEntryAtPathCached(pinned, 'spc_test', 'en', '/blog/hello', cv);
        // Another entry: the one by-path read is cached now, and would need no statement.
        const ids = await readEntriesAtCached(pinned, 'spc_test', ['ent_bob'], cv);
        const seen = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
          db,
        );
        return { byPath: path, byId: ids, rows: seen.rows };
      });
      expect(byPath?.id).toBe('ent_post');
      expect(byId.get('ent_bob')?.id).toBe('ent_bob');
      // The same answers as the unnamed statements give.
      expect(byPath).toEqual((await readEntriesAt(t.store, 'spc_test', ['ent_post'], cv)).get('ent_post'));
      expect(byId.get('ent_bob')).toEqual(
        (await readEntriesAt(t.store, 'spc_test', ['ent_bob'], cv)).get('ent_bob'),
      );
      expect(rows.map((r) => r.statement)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/folio:prepared[\s\S]*from entry_paths p join entry_versions v/),
          expect.stringMatching(/select \/\* folio:prepared \*\/ "entry_id"[\s\S]*from "entry_versions"/),
        ]),
      );
      expect(rows).toHaveLength(2);
    } finally {
      await t.close();
    }
  });

  it('is DATABASE_NAMED_STATEMENTS, on unless turned off', () => {
    const url = 'postgres://db.example/folio';
    const named = (env: Record<string, string>) => {
      const { store } = loadConfig({ DATABASE_URL: url, ...env });
      return store.engine === 'postgres' ? store.namedStatements : undefined;
    };
    expect(named({})).toBe(true);
    expect(named({ DATABASE_NAMED_STATEMENTS: 'off' })).toBe(false);
    expect(named({ DATABASE_NAMED_STATEMENTS: 'true' })).toBe(true);
    expect(() => named({ DATABASE_NAMED_STATEMENTS: 'sometimes' })).toThrow(ConfigError);
  });
});
