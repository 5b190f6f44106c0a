import { type Kysely, sql } from 'kysely';
import type { Engine } from '../dialect/dialect.js';

/** Spaces, tokens, authoring tables and the published log (DESIGN.md). */
export async function up0001Initial(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Frozen: the JSON column type as it was (StoreDialect.jsonType may change; this migration may not).
  const json = sql.raw(engine === 'postgres' ? 'jsonb' : 'text');

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', json, (c) => c.notNull())
    .addColumn('cv', 'integer', (c) => c.notNull())
    .addColumn('min_cv', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('origins', json, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('content_types')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('def', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('content_types_pk', ['space_id', 'key'])
    .execute();
  await db.schema
    .createTable('entries')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('slugs', json, (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('tags', json, (c) => c.notNull())
    .addColumn('published_fields', json)
    .addColumn('draft_fields', json)
    .addColumn('published_at', 'text')
    .addColumn('first_published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entries_pk', ['space_id', 'id'])
    .execute();
  await db.schema.createIndex('entries_parent').on('entries').columns(['space_id', 'parent_id']).execute();
  await db.schema
    .createTable('entry_versions')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('type_kind', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text', (c) => c.notNull())
    .addColumn('first_published_at', 'text', (c) => c.notNull())
    .addColumn('doc', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_versions_pk', ['space_id', 'entry_id', 'cv_from'])
    .execute();
  await db.schema
    .createIndex('entry_versions_type')
    .on('entry_versions')
    .columns(['space_id', 'type', 'cv_from'])
    .execute();
  await db.schema
    .createTable('entry_paths')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('path_key', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer')
    .execute();
  await db.schema
    .createIndex('entry_paths_lookup')
    .on('entry_paths')
    .columns(['space_id', 'locale', 'path_key', 'cv_from'])
    .execute();
  await db.schema
    .createIndex('entry_paths_entry')
    .on('entry_paths')
    .columns(['space_id', 'entry_id', 'cv_to'])
    .execute();
  await db.schema
    .createTable('assets')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('doc', json, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('assets_pk', ['space_id', 'id'])
    .execute();
  await db.schema
    .createTable('docs')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('doc', json, (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('docs_pk', ['space_id', 'kind', 'key'])
    .execute();
  await db.schema
    .createTable('doc_versions')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer')
    .addColumn('doc', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('doc_versions_pk', ['space_id', 'kind', 'key', 'cv_from'])
    .execute();
}
