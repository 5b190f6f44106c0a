import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { EntrySnapshot } from '../content/model.js';
import { deepFreeze } from '../lib/deep-freeze.js';
import { pathKey } from '../lib/path-key.js';
import { PREPARED_MARK, prepared } from './dialect/pg-named-statements.js';
import { type ChangeLog, EntryChanges } from './entry-changes.js';
import { visibleAt } from './log-repo.js';
import type { Store } from './open-store.js';

/**
 * Parsed published entry versions, shared by every delivery request of a process.
 *
 * A version of the published log, `(space, entry, cv_from)`, never changes once committed: a publish closes it
 * and opens a new one, and cvs only rise (an import with `--replace` continues the numbering). So a parsed
 * document can be reused by every request at any cv that sees that version. The cache keeps the most recently
 * read version of each entry; a read names the versions it holds, and the store sends the document only of the
 * others (`case … then null else doc`): one query as before, with no document transfer and no JSON parse for
 * the cached ones. A list page knows the versions from its own query (`known`) and needs no query at all.
 *
 * Cached snapshots are frozen, deeply: they are shared between concurrent requests, and a renderer that
 * modified one would corrupt every later response (a test would see the TypeError instead).
 */

/** Default budget in bytes of document text (ENTRY_CACHE_MB); held, they take about 1.5 times that of heap. */
export const DEFAULT_ENTRY_CACHE_BYTES = 64 * 1024 * 1024;

interface Version {
  cvFrom: number;
  snapshot: EntrySnapshot;
  /** The newest cv at which this version was seen visible: with the change log, it is still visible later. */
  seenAt: number;
}
type Versions = LRUCache<string, Version>;
interface Cache {
  versions: Versions;
  changes: EntryChanges;
}

// One cache per opened store; `null` when ENTRY_CACHE_MB is 0.
const caches = new WeakMap<Store, Cache | null>();

// Sized by the document's JSON text (every `set` passes it), measured when it is read from the store.
const newCache = (store: Store, maxBytes: number): Cache | null =>
  maxBytes > 0
    ? { versions: new LRUCache<string, Version>({ maxSize: maxBytes }), changes: new EntryChanges(store) }
    : null;

function cacheOf(store: Store): Cache | null {
  let cache = caches.get(store);
  if (cache === undefined) caches.set(store, (cache = newCache(store, DEFAULT_ENTRY_CACHE_BYTES)));
  return cache;
}

/** Sets the byte budget of a store's entry cache (the app does this from ENTRY_CACHE_MB); 0 turns it off. */
export function setEntryCacheBytes(store: Store, maxBytes: number): void {
  caches.set(store, newCache(store, maxBytes));
}

const entryKey = (spaceId: string, entryId: string) => `${spaceId}\n${entryId}`;

/**
 * The space's change log, extended through `cv` (one query per process and cv, shared with the entry cache); null
 * when the entry cache is off (ENTRY_CACHE_MB=0), which keeps no log.
 */
export async function entryChangesThrough(
  store: Store,
  spaceId: string,
  cv: number,
): Promise<ChangeLog | null> {
  const cache = cacheOf(store);
  return cache ? cache.changes.through(spaceId, cv) : null;
}

/**
 * The published entries `ids` of a space at `cv`, by id, as `readEntriesAt` answers them: one query, which
 * carries the documents only of versions the cache does not hold.
 *
 * `known`: the visible version's `cv_from` of some ids, as the caller read it at `cv` (a list page reads it from
 * the list tables, which a publish writes in the same transaction as the log). Those the cache holds need no
 * query; a hint that names another version than the cached one is only a miss.
 */
export async function readEntriesAtCached(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  cv: number,
  known?: ReadonlyMap<string, number>,
): Promise<Map<string, EntrySnapshot>> {
  const out = new Map<string, EntrySnapshot>();
  if (ids.length === 0) return out;
  const cache = cacheOf(store);
  const versions = cache?.versions ?? null;
  const changes = cache ? await cache.changes.through(spaceId, cv) : null;
  // What this read holds, taken now: another request may replace an entry's cached version meanwhile.
  const held = new Map<string, Version>();
  const ask: string[] = [];
  for (const id of ids) {
    const cached = versions?.get(entryKey(spaceId, id));
    // Still visible at cv: the caller read this version at cv, or the entry has not changed since it was seen.
    if (
      cached &&
      (known?.get(id) === cached.cvFrom || changes?.unchangedBetween(id, cached.seenAt, cv) === true)
    ) {
      if (cv > cached.seenAt) cached.seenAt = cv;
      out.set(id, cached.snapshot);
    } else {
      ask.push(id);
      if (cached) held.set(id, cached);
    }
  }
  if (ask.length === 0) return out;
  for (let i = 0; i < ask.length; i += CHUNK) {
    const chunk = ask.slice(i, i + CHUNK);
    for (const row of await readChunk(store, spaceId, chunk, cv, held, versions !== null)) {
      const cvFrom = Number(row.cv_from);
      const mine = held.get(row.entry_id);
      if (row.doc === null) {
        // The store saw the held version (the CASE in readChunk): it is the one visible at cv.
        if (mine && mine.cvFrom === cvFrom) {
          if (cv > mine.seenAt) mine.seenAt = cv;
          out.set(row.entry_id, mine.snapshot);
        }
        continue;
      }
      // The document as text on both engines (jsonText): its length sizes the cache entry.
      const snapshot = JSON.parse(row.doc) as EntrySnapshot;
      // The newest version read stays: a pinned read of an older cv does not push out what current reads use.
      if (versions && (mine === undefined || mine.cvFrom < cvFrom)) {
        const size = Math.max(1, row.doc.length);
        const version = { cvFrom, snapshot: deepFreeze(snapshot), seenAt: cv };
        versions.set(entryKey(spaceId, row.entry_id), version, { size });
      }
      out.set(row.entry_id, snapshot);
    }
  }
  return out;
}

/** Ids per statement: three parameters each, well inside both engines' limits (SQLite 32,766). */
const CHUNK = 1000;
/** Reads of at most this many ids run as named statements on PostgreSQL: at most this many texts per connection. */
const NAMED_MAX_IDS = 32;

function readChunk(
  store: Store,
  spaceId: string,
  ids: readonly string[],
  cv: number,
  held: ReadonlyMap<string, Version>,
  cached: boolean,
) {
  const doc = store.dialect.jsonText('doc');
  // Every id names the version held for it (-1: none), so the statement's text depends only on how many ids
  // there are (one prepared statement per count). One flat CASE, not a chain of ORs: SQLite bounds the depth of
  // an expression tree (1,000).
  const whens = ids.map((id) => sql`when ${id} then ${held.get(id)?.cvFrom ?? -1}`);
  const heldCv = sql<number>`case entry_id ${sql.join(whens, sql` `)} else -1 end`;
  // A page's worth of ids or fewer (by-id, a page's includes): one text per count, named on PostgreSQL.
  return store.db
    .selectFrom('entry_versions')
    .$if(ids.length <= NAMED_MAX_IDS, (q) => q.modifyFront(PREPARED_MARK))
    .select([
      'entry_id',
      'cv_from',
      (cached ? sql<string | null>`case when cv_from = ${heldCv} then null else ${doc} end` : doc).as('doc'),
    ])
    .where('space_id', '=', spaceId)
    .where('entry_id', 'in', ids)
    .where(visibleAt(cv))
    .execute();
}

/**
 * The published entry on `path` in `locale` at `cv` (by-path delivery), path and document in one statement: a cold
 * read costs one round trip instead of two. The parsed document is taken from the cache when it holds that version.
 */
export async function readEntryAtPathCached(
  store: Store,
  spaceId: string,
  locale: string,
  path: string,
  cv: number,
): Promise<EntrySnapshot | null> {
  // One text whatever the path: a named statement on PostgreSQL, planned once per connection.
  const { rows } = await prepared(sql<{ entry_id: string; cv_from: number | string; doc: string }>`
    select v.entry_id, v.cv_from, ${store.dialect.jsonText('v.doc')} as doc
    from entry_paths p join entry_versions v on v.space_id = p.space_id and v.entry_id = p.entry_id
      and v.cv_from <= ${cv} and (v.cv_to is null or v.cv_to > ${cv})
    where p.space_id = ${spaceId} and p.locale = ${locale} and p.path_key = ${pathKey(path)}
      and p.cv_from <= ${cv} and (p.cv_to is null or p.cv_to > ${cv})
    order by p.entry_id limit 1`).execute(store.db);
  const row = rows[0];
  if (!row) return null;
  const versions = cacheOf(store)?.versions;
  const cvFrom = Number(row.cv_from);
  const key = entryKey(spaceId, row.entry_id);
  const held = versions?.get(key);
  if (held && held.cvFrom === cvFrom) {
    if (cv > held.seenAt) held.seenAt = cv;
    return held.snapshot;
  }
  const snapshot = JSON.parse(row.doc) as EntrySnapshot;
  if (versions && (held === undefined || held.cvFrom < cvFrom))
    versions.set(
      key,
      { cvFrom, snapshot: deepFreeze(snapshot), seenAt: cv },
      { size: Math.max(1, row.doc.length) },
    );
  return snapshot;
}
