import { LRUCache } from 'lru-cache';
import type { AssetDoc, ContentTypeDef, EntrySnapshot, FieldValues, TypeMap } from '../content/model.js';
import { snapshotOf, treeNode } from '../content/publish.js';
import { loadForms } from './form-fields.js';
import type { DeliveredForm } from '../forms/definition/index.js';
import { computePaths } from '../content/paths.js';
import { pathKey } from '../lib/path-key.js';
import type { SpaceRow } from '../store/spaces-repo.js';
import { listAssets, listDocs, listEntries, listTypes, type EntryRow } from '../store/authoring-repo.js';
import { readEntriesAtCached, readEntryAtPathCached } from '../store/entry-version-cache.js';
import { readDocsAt, readEntriesOfTypesAt } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';

/** What delivery reads: the published log at one cv, or (preview tokens) drafts or a release. */
export interface ContentView {
  readonly mode: 'published' | 'draft' | 'release';
  readonly cv: number;
  types(): Promise<TypeMap>;
  /**
   * `versions`: the `cv_from` of some of them where the caller read it with the ids (a list page): the published
   * view then takes those from the entry cache without asking the store which versions it sees.
   */
  entries(
    ids: readonly string[],
    versions?: ReadonlyMap<string, number>,
  ): Promise<Map<string, EntrySnapshot>>;
  /** The entry on a page path in a locale (by-path delivery), or null. */
  entryAtPath(locale: string, path: string): Promise<EntrySnapshot | null>;
  entriesOfTypes(types: readonly string[]): Promise<EntrySnapshot[]>;
  assets(ids: readonly string[]): Promise<Map<string, AssetDoc>>;
  /** Forms named by form fields, delivered in `chain`'s locale (spec 2.9); deleted forms are absent. */
  forms(keys: readonly string[], chain: readonly string[]): Promise<Map<string, DeliveredForm>>;
}

// The types of a space at a cv never change (the log is append-only and cvs keep rising across an import with
// --replace), so every request at that cv shares one read: one query less per delivery request.
const typesAtCv = new WeakMap<Store, LRUCache<string, Promise<TypeMap>>>();

function publishedTypes(store: Store, spaceId: string, cv: number): Promise<TypeMap> {
  let cache = typesAtCv.get(store);
  if (!cache) typesAtCv.set(store, (cache = new LRUCache({ max: 256 })));
  const key = `${spaceId}\n${cv}`;
  const known = cache.get(key);
  if (known) return known;
  const read = readDocsAt<ContentTypeDef[]>(store, spaceId, 'types', ['*'], cv).then(
    (docs): TypeMap => new Map((docs.get('*') ?? []).map((t) => [t.key, t])),
  );
  cache.set(key, read);
  // A failed read (store down) is not remembered: the next request tries again.
  read.catch(() => cache.delete(key));
  return read;
}

export class PublishedView implements ContentView {
  readonly mode = 'published';
  constructor(
    private readonly store: Store,
    private readonly spaceId: string,
    readonly cv: number,
  ) {}

  types(): Promise<TypeMap> {
    return publishedTypes(this.store, this.spaceId, this.cv);
  }
  entries(ids: readonly string[], versions?: ReadonlyMap<string, number>) {
    return readEntriesAtCached(this.store, this.spaceId, ids, this.cv, versions);
  }
  entryAtPath(locale: string, path: string) {
    return readEntryAtPathCached(this.store, this.spaceId, locale, path, this.cv);
  }
  entriesOfTypes(types: readonly string[]) {
    return readEntriesOfTypesAt(this.store, this.spaceId, types, this.cv);
  }
  assets(ids: readonly string[]) {
    return readDocsAt<AssetDoc>(this.store, this.spaceId, 'asset', ids, this.cv);
  }
  forms(keys: readonly string[], chain: readonly string[]) {
    return loadForms(this.store, this.spaceId, keys, this.cv, chain);
  }
}

/**
 * Drafts and release previews, built from the authoring tables on each request. Preview traffic is light and
 * never cached, so this loads the space's entries once per request instead of keeping a second log.
 */
export class AuthoringView implements ContentView {
  private loaded:
    | Promise<{ types: TypeMap; snapshots: Map<string, EntrySnapshot>; paths: Map<string, string> }>
    | undefined;

  constructor(
    private readonly store: Store,
    private readonly space: SpaceRow,
    readonly mode: 'draft' | 'release',
    /** Fields shown for an entry in this view; null leaves the entry out. */
    private readonly fieldsFor: (e: EntryRow) => FieldValues | null,
  ) {}

  get cv(): number {
    return this.space.cv;
  }

  static async forRelease(store: Store, space: SpaceRow, releaseId: string): Promise<AuthoringView | null> {
    const releases = await listDocs<{ id: string; entries: { id: string; fields: FieldValues }[] }>(
      store,
      space.id,
      'releases',
    );
    const release = releases.find((r) => r.key === releaseId);
    if (!release) return null;
    const overlay = new Map(release.doc.entries.map((e) => [e.id, e.fields]));
    return new AuthoringView(store, space, 'release', (e) => overlay.get(e.id) ?? e.publishedFields);
  }

  static forDraft(store: Store, space: SpaceRow): AuthoringView {
    return new AuthoringView(store, space, 'draft', (e) => e.draftFields ?? e.publishedFields);
  }

  private load() {
    this.loaded ??= (async () => {
      const types = new Map((await listTypes(this.store, this.space.id)).map((t) => [t.key, t]));
      const rows = await listEntries(this.store, this.space.id);
      const paths = computePaths(rows.map(treeNode), types, this.space.settings);
      const now = new Date().toISOString();
      const snapshots = new Map<string, EntrySnapshot>();
      const byPath = new Map<string, string>();
      for (const row of rows) {
        const fields = this.fieldsFor(row);
        if (fields === null) continue;
        const p = paths.get(row.id) ?? null;
        snapshots.set(
          row.id,
          snapshotOf(row, fields, p, {
            publishedAt: row.publishedAt ?? now,
            firstPublishedAt: row.firstPublishedAt ?? row.publishedAt ?? now,
          }),
        );
        if (p && types.get(row.type)?.kind !== 'folder')
          for (const [locale, path] of Object.entries(p)) {
            const key = `${locale} ${pathKey(path)}`;
            if (!byPath.has(key)) byPath.set(key, row.id);
          }
      }
      return { types, snapshots, paths: byPath };
    })();
    return this.loaded;
  }

  async types() {
    return (await this.load()).types;
  }
  async entries(ids: readonly string[]) {
    const { snapshots } = await this.load();
    const out = new Map<string, EntrySnapshot>();
    for (const id of ids) {
      const s = snapshots.get(id);
      if (s) out.set(id, s);
    }
    return out;
  }
  async entryAtPath(locale: string, path: string) {
    const { paths, snapshots } = await this.load();
    return snapshots.get(paths.get(`${locale} ${pathKey(path)}`) ?? '') ?? null;
  }
  async entriesOfTypes(types: readonly string[]) {
    const { snapshots } = await this.load();
    return [...snapshots.values()]
      .filter((s) => types.includes(s.type))
      .sort((a, b) => (a.type === b.type ? (a.id < b.id ? -1 : 1) : a.type < b.type ? -1 : 1));
  }
  async assets(ids: readonly string[]) {
    const all = await listAssets(this.store, this.space.id);
    const wanted = new Set(ids);
    return new Map(all.filter((a) => wanted.has(a.doc.id)).map((a) => [a.doc.id, a.doc]));
  }
  // Saving a form publishes it (spec 3.4), so previews show the forms of the current cv.
  forms(keys: readonly string[], chain: readonly string[]) {
    return loadForms(this.store, this.space.id, keys, this.space.cv, chain);
  }
}
