// The published log read as a difference (issue 16): which documents opened or closed a version between two
// cache versions, and their versions at either end. The same SQL on SQLite and PostgreSQL.

import { type RawBuilder, sql } from 'kysely';
import type { Store } from '../store/open-store.js';

/** A table of the published log, and the column that names a document in it. */
export interface LogSource {
  table: 'entry_versions' | 'doc_versions' | 'redirects';
  key: 'entry_id' | 'key' | 'id';
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
  const past = after === null ? sql`` : sql` and ${key} > ${after}`;
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
            ${source.table === 'redirects' ? redirectsToMoved(spaceId, range, past) : sql``}
          ) touched order by k limit ${limit}`;
  const { rows } = await query.execute(store.db);
  return rows.map((r) => String(r.k));
}

/**
 * Entries that opened or closed a version in the range: the candidates whose delivered path may have changed
 * (pages, and folders, whose paths menus link to). Documents that deliver their paths are compared by them.
 */
const movedInRange = (spaceId: string, range: CvRange) => sql`select entry_id from entry_versions
    where space_id = ${spaceId} and cv_from > ${range.from} and cv_from <= ${range.to}
  union
  select entry_id from entry_versions
    where space_id = ${spaceId} and cv_to > ${range.from} and cv_to <= ${range.to}`;

/** Redirects visible at the end whose target entry moved: what they deliver (`to`, a path) changed with it. */
const redirectsToMoved = (spaceId: string, range: CvRange, past: RawBuilder<unknown>) => sql`union
  select id as k from redirects where space_id = ${spaceId}${past}
    and cv_from <= ${range.to} and (cv_to is null or cv_to > ${range.to})
    and to_entry in (${movedInRange(spaceId, range)})`;

/** The ids of entries that opened or closed a version in the range. */
export async function movedEntryIds(store: Store, spaceId: string, range: CvRange): Promise<Set<string>> {
  const { rows } = await sql<{
    entry_id: string;
  }>`select distinct entry_id from (${movedInRange(spaceId, range)}) moved`.execute(store.db);
  return new Set(rows.map((r) => r.entry_id));
}

/** The delivered paths of entries at `cv`, as `{ id: { locale: path } }` in canonical JSON per id. */
export async function entryPathsAt(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  cv: number,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0 || cv === 0) return out;
  const rows = await store.db
    .selectFrom('entry_versions')
    .select(['entry_id', 'doc'])
    .where('space_id', '=', spaceId)
    .where('entry_id', 'in', [...ids])
    .where((eb) => eb.and([eb('cv_from', '<=', cv), eb.or([eb('cv_to', 'is', null), eb('cv_to', '>', cv)])]))
    .execute();
  for (const r of rows) {
    const doc = store.dialect.parseJson<{ paths?: unknown }>(r.doc);
    out.set(r.entry_id, canonicalJson(doc.paths ?? null));
  }
  return out;
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
  const key = sql.ref(source.key);
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(source.table)}
      where ${where(spaceId, source)} and ${key} in (${sql.join([...keys])})
      and cv_from <= ${cv} and (cv_to is null or cv_to > ${cv})`.execute(store.db);
  for (const row of rows) {
    const k = String(row[source.key]);
    out.set(k, { key: k, content: contentOf(store, source, row), row });
  }
  return out;
}

/**
 * What a version delivers, as JSON text: a republish that changed nothing is no change. Documents compare by
 * their stored JSON; redirects by their columns, without the version bounds and bookkeeping.
 */
function contentOf(store: Store, source: LogSource, row: Record<string, unknown>): string {
  if (source.table === 'redirects') {
    const { locale, from_path, to_entry, to_url, status } = row;
    return JSON.stringify([locale, from_path, to_entry, to_url, Number(status)]);
  }
  // As stored, not re-serialised: SQLite keeps the JSON text this service wrote (one writer, one key order), and
  // node-postgres parses jsonb, whose keys come back in jsonb's own fixed order. Sorting keys here was slow on a
  // page of many changed entries (docs/operations.md, "Figures behind the code").
  return typeof row.doc === 'string' ? row.doc : JSON.stringify(row.doc);
}

/** JSON with object keys sorted, so two engines' (and two writes') key orders compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
