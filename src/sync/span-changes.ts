// What changed in a span of the published log, document by document, loaded once per span: the entries with a new
// version (both ends parsed), and the assets, forms, option lists and types whose published documents differ. The
// rest of `/sync` (what else shows them: affected pages, menus, redirects, the sitemap and the tree) starts here.

import type { ContentTypeDef, EntrySnapshot, TypeMap } from '../content/model.js';
import type { TimeSlicer } from '../lib/time-slice.js';
import type { Store } from '../store/open-store.js';
import { type CvRange, fewMovedEntryIds, type LogSource, touchedKeys, versionsAt } from './sync-repo.js';

/** An entry whose published version differs between the ends of the span. */
export interface EntryChange {
  id: string;
  /** Visible at the start (`since`), if it was. */
  before: EntrySnapshot | undefined;
  /** Visible at the end, if it is. */
  after: EntrySnapshot | undefined;
}

/** A document of another kind whose published version differs: its parsed versions at both ends. */
export interface DocChange<T> {
  key: string;
  before: T | undefined;
  after: T | undefined;
}

export interface SpanChanges {
  range: CvRange;
  /** Entries by id. Empty (with `tooMany`) past the bound. */
  entries: Map<string, EntryChange>;
  /** More entries changed than one computation takes: the answer says `truncated`. */
  tooMany: boolean;
  assets: Map<string, DocChange<unknown>>;
  forms: Map<string, DocChange<unknown>>;
  lists: Map<string, DocChange<unknown>>;
  menus: Map<string, DocChange<unknown>>;
  /** The content model changed: every rendered answer may have (the answer says `truncated`). */
  typesChanged: boolean;
  /** The types at each end. */
  typesBefore: TypeMap;
  typesAfter: TypeMap;
}

/** Entries one span computation loads at most; past it `/sync` answers `truncated` (docs/api.md "Sync"). */
export const MAX_CHANGED_ENTRIES = 20_000;
/** Documents of one other kind one span computation reads at most. */
const MAX_DOCS = 100_000;

const ENTRIES: LogSource = { table: 'entry_versions', key: 'entry_id' };
const docs = (docKind: string): LogSource => ({ table: 'doc_versions', key: 'key', docKind });

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Keys per read while a span's touched documents are listed. */
const KEY_BATCH = 1000;

/**
 * The keys of `source` touched in the range, in key order, at most `max`: read `KEY_BATCH` at a time with the
 * slicer between. In one statement, the 20,000 entries of a large span were read in 25-45 ms of SQLite, which
 * runs synchronously and held the event loop for all of it.
 */
async function touchedUpTo(
  store: Store,
  spaceId: string,
  source: LogSource,
  range: CvRange,
  max: number,
  slicer: TimeSlicer,
): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  while (out.length < max) {
    const want = Math.min(KEY_BATCH, max - out.length);
    const keys = await touchedKeys(store, spaceId, source, range, after, want);
    out.push(...keys);
    await slicer.tick();
    const last = keys.at(-1);
    if (keys.length < want || last === undefined) break;
    after = last;
  }
  return out;
}

async function docChanges(
  store: Store,
  spaceId: string,
  kind: string,
  range: CvRange,
  slicer: TimeSlicer,
): Promise<Map<string, DocChange<unknown>>> {
  const out = new Map<string, DocChange<unknown>>();
  const source = docs(kind);
  const keys = await touchedUpTo(store, spaceId, source, range, MAX_DOCS, slicer);
  for (const part of chunks(keys, 500)) {
    const [was, now] = await Promise.all([
      versionsAt(store, spaceId, source, part, range.from),
      versionsAt(store, spaceId, source, part, range.to),
    ]);
    for (const key of part) {
      const a = was.get(key);
      const b = now.get(key);
      if (a?.content === b?.content) continue;
      const parse = (v: typeof a) =>
        v === undefined ? undefined : store.dialect.parseJson<unknown>(v.row.doc);
      out.set(key, { key, before: parse(a), after: parse(b) });
    }
    await slicer.tick();
  }
  return out;
}

const typeMap = (doc: unknown): TypeMap =>
  new Map((Array.isArray(doc) ? (doc as ContentTypeDef[]) : []).map((t) => [t.key, t]));

/** Reads what changed between `range.from` (exclusive) and `range.to`; `from` 0 means from nothing. */
export async function loadSpanChanges(
  store: Store,
  spaceId: string,
  range: CvRange,
  slicer: TimeSlicer,
): Promise<SpanChanges> {
  const entries = new Map<string, EntryChange>();
  // From nothing every answer is new: the entries themselves are walked page by page, never all at once.
  // A span of few changes is read through the log's cv indexes; one of many, by key in slices, up to one past the
  // bound (enough to know there are too many). Sorted here either way (the SQL's key order is the database's
  // collation; the rest of the computation was written against JavaScript's).
  const moved =
    range.from === 0
      ? []
      : (
          (await fewMovedEntryIds(store, spaceId, range, KEY_BATCH)) ??
          (await touchedUpTo(store, spaceId, ENTRIES, range, MAX_CHANGED_ENTRIES + 1, slicer))
        ).sort();
  const tooMany = moved.length > MAX_CHANGED_ENTRIES;
  if (!tooMany) {
    for (const part of chunks(moved, 250)) {
      const [was, now] = await Promise.all([
        versionsAt(store, spaceId, ENTRIES, part, range.from),
        versionsAt(store, spaceId, ENTRIES, part, range.to),
      ]);
      for (const id of part) {
        const a = was.get(id);
        const b = now.get(id);
        // A republish that changed nothing, or a version opened and closed inside the span, is no change.
        if (a?.content === b?.content) continue;
        const parse = (v: typeof a) =>
          v === undefined ? undefined : store.dialect.parseJson<EntrySnapshot>(v.row.doc);
        entries.set(id, { id, before: parse(a), after: parse(b) });
      }
      await slicer.tick();
    }
  }
  const [assets, forms, lists, menus, types] = [
    await docChanges(store, spaceId, 'asset', range, slicer),
    await docChanges(store, spaceId, 'form', range, slicer),
    await docChanges(store, spaceId, 'list', range, slicer),
    await docChanges(store, spaceId, 'menu', range, slicer),
    await versionsAt(store, spaceId, docs('types'), ['*'], range.from).then(async (before) => ({
      before,
      after: await versionsAt(store, spaceId, docs('types'), ['*'], range.to),
    })),
  ];
  const typesBefore = types.before.get('*');
  const typesAfter = types.after.get('*');
  return {
    range,
    entries,
    tooMany,
    assets,
    forms,
    lists,
    menus,
    typesChanged: range.from > 0 && typesBefore?.content !== typesAfter?.content,
    typesBefore: typeMap(typesBefore && store.dialect.parseJson<unknown>(typesBefore.row.doc)),
    typesAfter: typeMap(typesAfter && store.dialect.parseJson<unknown>(typesAfter.row.doc)),
  };
}
