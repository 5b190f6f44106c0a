import type { Kysely } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/**
 * Semantic search (spec 4.2 `/search`).
 *
 * `search_embeddings`: one row per chunk of one entry version's searchable text in one locale, embedded by one
 * model: `vector` is the packed little-endian float32 unit vector (bytea / blob; its length gives the dimension).
 * Rows name the version (`entry_id`, `cv_from`), so visibility at a cv comes from `entry_versions`. `seq` orders
 * rows as written, so an instance loads only what is new. `text_hash` lets a version whose text did not change
 * reuse its predecessor's vector instead of embedding again.
 *
 * `search_state`: per space, the model its vectors are of, the cv up to which every open version is embedded
 * (`indexed_cv`), and two counters instances compare with what they hold: `revision` (vectors were added) and
 * `generation` (vectors were removed: reload).
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0015SearchEmbeddings(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const pg = engine === 'postgres';
  await db.schema
    .createTable('search_embeddings')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('vector', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_embeddings_version')
    .on('search_embeddings')
    .columns(['space_id', 'entry_id', 'cv_from', 'model', 'locale', 'chunk'])
    .unique()
    .execute();
  await db.schema
    .createIndex('search_embeddings_load')
    .on('search_embeddings')
    .columns(['space_id', 'model', 'locale', 'seq'])
    .execute();
  await db.schema
    .createIndex('search_embeddings_text')
    .on('search_embeddings')
    .columns(['space_id', 'model', 'text_hash'])
    .execute();

  await db.schema
    .createTable('search_state')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('indexed_cv', 'integer', (c) => c.notNull())
    .addColumn('pruned_cv', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
}
