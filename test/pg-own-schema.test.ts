// A store starting beside schemas being dropped (parallel test files; a tenant schema removed during a deploy):
// Kysely's migrator asked its introspector about every schema, and a schema dropped between the catalog read and
// `has_schema_privilege(name)` failed the start with "schema … does not exist". The store's dialect
// (src/store/dialect/pg-own-schema.ts) reads only its own schema.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store.js';
import { DATABASE_URL, dropSchema } from './helpers/engines.js';
import { randomBase62 } from '../src/lib/ids.js';

const prefix = `t_drop_${randomBase62(6).toLowerCase()}_`;
const owned: string[] = [];

afterAll(async () => {
  for (const schema of owned) await dropSchema(schema);
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const { rows } = await admin.query<{ n: string }>(
    `select nspname as n from pg_namespace where nspname like $1`,
    [`${prefix}%`],
  );
  for (const { n } of rows) await admin.query(`drop schema if exists ${admin.escapeIdentifier(n)} cascade`);
  await admin.end();
});

describe('a PostgreSQL store starts while other schemas are dropped', () => {
  it('migrates fresh schemas while 40 others with tables are dropped at the same time, every time', async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      for (let round = 0; round < 6; round++) {
        const doomed = Array.from({ length: 40 }, (_, i) => `${prefix}${round}_${i}`);
        for (const s of doomed) await admin.query(`create schema ${s}; create table ${s}.t (a int, b text)`);
        const schema = `${prefix}own_${round}`;
        owned.push(schema);
        const dropping = (async () => {
          for (const s of doomed) await admin.query(`drop schema ${s} cascade`);
        })();
        const opening = openStore({ engine: 'postgres', url: DATABASE_URL, schema }).then((s) => s.close());
        await Promise.all([dropping, opening]);
      }
    } finally {
      await admin.end();
    }
  }, 120_000);

  it('sees only its own tables: a migration table in another schema does not count', async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    const other = `${prefix}other`;
    const schema = `${prefix}own_fresh`;
    owned.push(other, schema);
    try {
      await admin.query(`create schema ${other}; create table ${other}.folio_migration (name text)`);
      const store = await openStore({ engine: 'postgres', url: DATABASE_URL, schema });
      try {
        const tables = await store.db.introspection.getTables();
        expect(tables.map((t) => t.schema)).toEqual(tables.map(() => schema));
        expect(tables.map((t) => t.name)).toContain('entries');
      } finally {
        await store.close();
      }
    } finally {
      await admin.end();
    }
  });
});
