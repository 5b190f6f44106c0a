// The published log read as a difference: which documents opened or closed a version between two
// cache versions, and their versions at either end. The same SQL on SQLite and PostgreSQL.

import { type RawBuilder, sql } from 'kysely';
import type { Store } from '../store/open-store.js';

/** A table of the published log, and the column that names a document in it. */
export interface LogSource {
  table: 'entry_versions' | 'doc_versions';
  key: 'entry_id' | 'key';
  /** `doc_versions` only: the document kind (`menu`, `form`, …). */
  docKind?: string;
}

export interface CvRange {
  /** Exclusive: the client's `since` (0: from nothing). */
  from: number;
  /** Inclusive: the cv the answer is for. */
  to: number;
}

/** A document's version at one end of the range. */
export interface VersionAt {
  key: string;
  /** What decides equality: the version's delivered content, as canonical JSON. */
  content: string;
  row: Record<string, unknown>;
}

function where(spaceId: string, source: LogSource): RawBuilder<unknown> {
  return source.docKind === undefined
    ? sql`space_id = ${spaceId}`
    : sql`space_id = ${spaceId} and kind = ${source.docKind}`;
}

/**
 * The next `limit` keys after `after` (in key order) whose documents opened or closed a version in the range.
 * From nothing (`from` 0) that is every document visible at `to`, read in key order; otherwise the versions that
 * opened and those that closed inside the range, each edge through its own index (migration 0011).
 */
export async function touchedKeys(
  store: Store,
  spaceId: string,
  source: LogSource,
  range: CvRange,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const key = sql.ref(source.key);
  const table = sql.table(source.table);
  const base = where(spaceId, source);
  // Bounded below even on a first page: without a bound on the key, SQLite's planner (it keeps no statistics)
  // took the cv_from index and sorted every version visible at `to` to hand out the first 101 (70-200 ms in one
  // statement on 20,000 entries, holding the event loop). With one it walks the key index in order and stops at
  // `limit`. Every key is a non-null string, and every string sorts at or after ''.
  const past = after === null ? sql` and ${key} >= ''` : sql` and ${key} > ${after}`;
  const query =
    range.from === 0
      ? sql<{ k: string }>`select ${key} as k from ${table} where ${base}${past}
          and cv_from <= ${range.to} and (cv_to is null or cv_to > ${range.to})
          order by ${key} limit ${limit}`
      : sql<{ k: string }>`select k from (
            select ${key} as k from ${table} where ${base}${past}
              and cv_from > ${range.from} and cv_from <= ${range.to}
            union
            select ${key} as k from ${table} where ${base}${past}
              and cv_to > ${range.from} and cv_to <= ${range.to}
          ) touched order by k limit ${limit}`;
  const { rows } = await query.execute(store.db);
  return rows.map((r) => String(r.k));
}

/**
 * The ids of entries that opened or closed a version in the range, when fewer than `limit` versions did at each
 * edge: each edge read through its own index (migration 0011), so a span of a few publishes costs a few rows however
 * large the space. Null when either edge reached `limit` (a span of many changes: list them by key instead).
 */
export async function fewMovedEntryIds(
  store: Store,
  spaceId: string,
  range: CvRange,
  limit: number,
): Promise<string[] | null> {
  const edge = async (column: 'cv_from' | 'cv_to') => {
    const { rows } = await sql<{ entry_id: string }>`select entry_id from entry_versions
      where space_id = ${spaceId} and ${sql.ref(column)} > ${range.from} and ${sql.ref(column)} <= ${range.to}
      limit ${limit}`.execute(store.db);
    return rows.map((r) => r.entry_id);
  };
  const opened = await edge('cv_from');
  if (opened.length >= limit) return null;
  const closed = await edge('cv_to');
  if (closed.length >= limit) return null;
  return [...new Set([...opened, ...closed])];
}

/** The statement of `versionsAt`. */
export function versionsAtQuery(spaceId: string, source: LogSource, keys: readonly string[], cv: number) {
  // `+cv_from` keeps the cv indexes out of a lookup by key (a unary plus is no indexable column on either
  // engine): PostgreSQL without statistics (a table just loaded, before autovacuum analyzes it) read every version
  // of the space through the cv_from index and tested each against the keys, 20-230 ms a statement at 20,000
  // entries where the primary key finds the 250 rows in under 1 ms.
  return sql<Record<string, unknown>>`select * from ${sql.table(source.table)}
      where ${where(spaceId, source)} and ${sql.ref(source.key)} in (${sql.join([...keys])})
      and +cv_from <= ${cv} and (cv_to is null or +cv_to > ${cv})`;
}

/** The versions of `keys` visible at `cv`, by key. */
export async function versionsAt(
  store: Store,
  spaceId: string,
  source: LogSource,
  keys: readonly string[],
  cv: number,
): Promise<Map<string, VersionAt>> {
  const out = new Map<string, VersionAt>();
  if (keys.length === 0 || cv === 0) return out;
  const { rows } = await versionsAtQuery(spaceId, source, keys, cv).execute(store.db);
  for (const row of rows) {
    const k = String(row[source.key]);
    out.set(k, { key: k, content: contentOf(row), row });
  }
  return out;
}

/**
 * What a version delivers, as JSON text: a republish that changed nothing is no change.
 */
function contentOf(row: Record<string, unknown>): string {
  // As stored, not re-serialised: SQLite keeps the JSON text this service wrote (one writer, one key order), and
  // node-postgres parses jsonb, whose keys come back in jsonb's own fixed order. Sorting keys here was slow on a
  // page of many changed entries (docs/operations.md, "Figures behind the code").
  return typeof row.doc === 'string' ? row.doc : JSON.stringify(row.doc);
}

/**
 * The path keys of redirects that opened or closed a version in the range (from nothing: of every redirect
 * visible at the end), at most `limit`.
 */
export async function touchedRedirectKeys(
  store: Store,
  spaceId: string,
  range: CvRange,
  limit: number,
): Promise<string[]> {
  const query =
    range.from === 0
      ? sql<{ k: string }>`select distinct from_key as k from redirects where space_id = ${spaceId}
          and cv_from <= ${range.to} and (cv_to is null or cv_to > ${range.to}) order by k limit ${limit}`
      : sql<{ k: string }>`select k from (
            select from_key as k from redirects where space_id = ${spaceId}
              and cv_from > ${range.from} and cv_from <= ${range.to}
            union
            select from_key as k from redirects where space_id = ${spaceId}
              and cv_to > ${range.from} and cv_to <= ${range.to}
          ) touched order by k limit ${limit}`;
  const { rows } = await query.execute(store.db);
  return rows.map((r) => String(r.k));
}
