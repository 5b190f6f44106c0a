import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Engine, StoreDialect } from '../dialect/dialect.js';
import { up0001Initial } from './0001-initial.js';
import { up0002Outbox } from './0002-outbox.js';
import { up0003EntryLists } from './0003-entry-lists.js';
import { up0004RedirectsWebhooks } from './0004-redirects-webhooks.js';
import { up0005Forms } from './0005-forms.js';
import { up0006CvNotify } from './0006-cv-notify.js';
import { up0007ListRows } from './0007-list-rows.js';
import { up0008UploadsNotifications } from './0008-uploads-notifications.js';
import { up0009InboxPermissions } from './0009-inbox-permissions.js';
import { up0010TokenGeneration } from './0010-token-generation.js';
import { up0011SyncIndexes } from './0011-sync-indexes.js';
import { up0012EntryCloseIndex } from './0012-entry-close-index.js';
import { up0013Lz4Documents } from './0013-lz4-documents.js';
import { up0014ReindexSteps } from './0014-reindex-steps.js';
import { up0015SearchEmbeddings } from './0015-search-embeddings.js';
import { up0016SlotWalkOrder } from './0016-slot-walk-order.js';
import { up0017NumberSlotOrder } from './0017-number-slot-order.js';
import { up0018DerivedImages } from './0018-derived-images.js';
import { up0019OutboxSubmission } from './0019-outbox-submission.js';
import { up0020SubmissionAddresses } from './0020-submission-addresses.js';
import { up0021InboxSessions } from './0021-inbox-sessions.js';
import { up0022SubmissionCounts } from './0022-submission-counts.js';
import { up0023FormDrafts } from './0023-form-drafts.js';
import { up0027InboxPeople } from './0027-inbox-people.js';
import { up0028EntryDeps } from './0028-entry-deps.js';
import { up0029ServerSideTokens } from './0029-server-side-tokens.js';
import { up0030SubmissionAddressMarks } from './0030-submission-address-marks.js';
import { up0031SubmissionSearchIndex } from './0031-submission-search-index.js';

/** A migration gets the engine's name, nothing of today's dialect object: it is frozen (STYLE.md rule 14). */
type Up = (db: Kysely<unknown>, engine: Engine) => Promise<void>;

/**
 * Migrations are code, built per engine (the JSON column type differs). Append only: one file per migration, one
 * line here; never change what a shipped one does. Each spells out its own SQL and imports nothing but Kysely
 * and the `Engine` type; data backfills are reindex steps (src/store/reindex.ts), which run after them.
 */
const MIGRATIONS: [name: string, up: Up][] = [
  ['0001-initial', up0001Initial],
  ['0002-outbox', up0002Outbox],
  ['0003-entry-lists', up0003EntryLists],
  ['0004-redirects-webhooks', up0004RedirectsWebhooks],
  ['0005-forms', up0005Forms],
  ['0006-cv-notify', up0006CvNotify],
  ['0007-list-rows', up0007ListRows],
  ['0008-uploads-notifications', up0008UploadsNotifications],
  ['0009-inbox-permissions', up0009InboxPermissions],
  ['0010-token-generation', up0010TokenGeneration],
  ['0011-sync-indexes', up0011SyncIndexes],
  ['0012-entry-close-index', up0012EntryCloseIndex],
  ['0013-lz4-documents', up0013Lz4Documents],
  ['0014-reindex-steps', up0014ReindexSteps],
  ['0015-search-embeddings', up0015SearchEmbeddings],
  ['0016-slot-walk-order', up0016SlotWalkOrder],
  ['0017-number-slot-order', up0017NumberSlotOrder],
  ['0018-derived-images', up0018DerivedImages],
  ['0019-outbox-submission', up0019OutboxSubmission],
  ['0020-submission-addresses', up0020SubmissionAddresses],
  ['0021-inbox-sessions', up0021InboxSessions],
  ['0022-submission-counts', up0022SubmissionCounts],
  ['0023-form-drafts', up0023FormDrafts],
  ['0027-inbox-people', up0027InboxPeople],
  ['0028-entry-deps', up0028EntryDeps],
  ['0029-server-side-tokens', up0029ServerSideTokens],
  ['0030-submission-address-marks', up0030SubmissionAddressMarks],
  ['0031-submission-search-index', up0031SubmissionSearchIndex],
];

/** The migrations this binary knows, by name. */
const KNOWN = new Set(MIGRATIONS.map(([name]) => name));

/** The newest migration this binary knows: what `folio migrate` and the version line report. */
export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]?.[0] ?? '';

/**
 * A binary older than its store: a newer Folio ran migrations this one does not know, so this one would write rows
 * without what the newer code derives (erase would miss them). Kysely itself calls this "corrupted migrations".
 */
export class StoreNewerError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(
      `This store was migrated by a newer Folio (migrations ${unknown.join(', ')}; this binary knows up to ${LATEST_MIGRATION}); run that version or newer.`,
    );
    this.name = 'StoreNewerError';
  }
}

/**
 * The migrations recorded in the store that this binary does not know (none on a store never migrated). Cheap:
 * one small query, so a running instance can ask at every cv poll (src/cluster/cv-fanout.ts).
 */
export async function unknownMigrations(db: Kysely<unknown>): Promise<string[]> {
  let names: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from folio_migration`.execute(db);
    names = rows.map((r) => r.name);
  } catch (err) {
    // No table yet: a store never migrated. Anything else (the store unreachable) is the caller's to see.
    if (/folio_migration/.test((err as Error).message)) return [];
    throw err;
  }
  return names.filter((n) => !KNOWN.has(n)).sort();
}

/**
 * Brings the schema up to date and returns the names of the migrations it applied (none: it was). Refuses a store
 * a newer binary migrated (`StoreNewerError`) before touching it.
 */
export async function migrateToLatest(db: Kysely<unknown>, dialect: StoreDialect): Promise<string[]> {
  const newer = await unknownMigrations(db);
  if (newer.length > 0) throw new StoreNewerError(newer);
  const migrations: Record<string, Migration> = {};
  for (const [name, up] of MIGRATIONS)
    migrations[name] = { up: (d: Kysely<unknown>) => up(d, dialect.engine) };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Kysely looks for its migration tables in every schema unless told which one: on PostgreSQL name the
  // store's own schema, or a store whose schema is new skips creating them when another schema has them.
  const schema = await dialect.currentSchema(db);
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'folio_migration',
    migrationLockTableName: 'folio_migration_lock',
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    // A newer binary may have migrated between the check above and the migrator's lock.
    const raced = await unknownMigrations(db).catch(() => []);
    if (raced.length > 0) throw new StoreNewerError(raced);
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
