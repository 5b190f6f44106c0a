import type { Kysely } from 'kysely';

/**
 * `entry_deps`: what each published entry version shows of other documents — the entries it links to, the
 * entries its reference fields name (with the field's key, which `include` names), the assets and forms it shows —
 * versioned like `entry_paths` (a row lives from its version's `cv_from` to its `cv_to`). `/sync` and the CDN keys
 * of a publish read it backwards ("who shows this?") instead of rendering every page. Each indexed version also has
 * one `version` row (no target), so a version written without its rows (by an older binary) can be found.
 *
 * Frozen: spells out its own schema and never calls repository code.
 */
export async function up0028EntryDeps(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entry_deps')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('cv_from', 'integer', (c) => c.notNull())
    .addColumn('cv_to', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .execute();
  // Who shows this target (the backwards read), and closing or finding one version's rows.
  await db.schema
    .createIndex('entry_deps_target')
    .on('entry_deps')
    .columns(['space_id', 'target', 'kind', 'cv_from'])
    .execute();
  await db.schema
    .createIndex('entry_deps_entry')
    .on('entry_deps')
    .columns(['space_id', 'entry_id', 'cv_from'])
    .execute();
  await db.schema.createIndex('entry_deps_cv_to').on('entry_deps').columns(['space_id', 'cv_to']).execute();
}
