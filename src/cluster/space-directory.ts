import { defaultLocale } from '../content/locales.js';
import type { Log } from '../observability/log.js';
import type { Store } from '../store/open-store.js';
import type { SpaceRow } from '../store/spaces-repo.js';

/** One space as the hot path needs it; replaced whole on every change, so a reader sees one consistent row. */
export interface SpaceEntry {
  readonly row: SpaceRow;
  readonly defaultLocale: string;
}

export interface SpaceVersion {
  id: string;
  cv: number;
  minCv: number;
  /** Token revocations (migration 0010); the poll reads it, publish notifications do not carry it. */
  tokenGen?: number;
}

export interface SpaceSource {
  read(spaceId: string): Promise<SpaceRow | null>;
}

const entryOf = (row: SpaceRow): SpaceEntry => ({ row, defaultLocale: defaultLocale(row.settings) });

/**
 * Every space's row (cv, min_cv, settings) held in memory (spec 1.2, DESIGN.md "Caching"): the cache key and
 * `loadSpace` read it without a query. It learns of publishes by `notify` (in-process signal, PostgreSQL NOTIFY,
 * Redis pub/sub; src/cluster/cv-fanout.ts) and by `reconcile` (the fallback poll). A higher cv is adopted at
 * once; the row is then re-read for settings and min_cv, which change only with an import or a prune.
 */
export class SpaceDirectory {
  private readonly spaces = new Map<string, SpaceEntry>();
  private readonly loading = new Map<string, Promise<SpaceEntry | null>>();
  /** Spaces whose row must be read again; a read in flight runs once more when it ends. */
  private readonly dirty = new Set<string>();
  private readonly reading = new Set<string>();

  constructor(
    private readonly source: SpaceSource,
    private readonly log: Log,
  ) {}

  /** The hot path: memory only, undefined when the space was never loaded. */
  peek(spaceId: string): SpaceEntry | undefined {
    return this.spaces.get(spaceId);
  }

  /** The space's row from memory, loaded once on first use (no query per request). */
  async get(spaceId: string): Promise<SpaceRow | null> {
    const known = this.spaces.get(spaceId);
    if (known) return known.row;
    let pending = this.loading.get(spaceId);
    if (!pending) {
      pending = this.source.read(spaceId).then(
        (row) => {
          this.loading.delete(spaceId);
          if (!row) return null;
          return this.adopt(row);
        },
        (err: unknown) => {
          this.loading.delete(spaceId);
          throw err;
        },
      );
      this.loading.set(spaceId, pending);
    }
    return (await pending)?.row ?? null;
  }

  /** A publish (or prune) happened: adopt a higher cv now, then re-read the row in the background. */
  notify(spaceId: string, cv: number, minCv?: number): void {
    const known = this.spaces.get(spaceId);
    if (!known) return; // never asked for here: loaded on first use
    const { row } = known;
    if (cv > row.cv || (minCv !== undefined && minCv !== row.minCv)) {
      if (cv > row.cv) {
        this.spaces.set(spaceId, {
          row: { ...row, cv, minCv: Math.max(row.minCv, minCv ?? row.minCv) },
          defaultLocale: known.defaultLocale,
        });
      }
      this.reread(spaceId);
    }
  }

  /** The fallback poll's answer: any space whose cv or min_cv moved without a notification is re-read. */
  reconcile(versions: SpaceVersion[]): void {
    for (const v of versions) {
      const known = this.spaces.get(v.id)?.row;
      if (known && (v.cv !== known.cv || v.minCv !== known.minCv)) this.notify(v.id, v.cv, v.minCv);
    }
  }

  /** Forgets a space (deleted): the next request reads it again. */
  forget(spaceId: string): void {
    this.spaces.delete(spaceId);
  }

  private adopt(row: SpaceRow): SpaceEntry {
    const known = this.spaces.get(row.id);
    // A read that started before a newer notification must not move the cv back.
    if (known && known.row.cv > row.cv) return known;
    const entry = entryOf(row);
    this.spaces.set(row.id, entry);
    return entry;
  }

  private reread(spaceId: string): void {
    this.dirty.add(spaceId);
    if (this.reading.has(spaceId)) return;
    this.reading.add(spaceId);
    void (async () => {
      try {
        while (this.dirty.delete(spaceId)) {
          const row = await this.source.read(spaceId);
          if (!row) this.spaces.delete(spaceId);
          else if (row.cv < (this.spaces.get(spaceId)?.row.cv ?? 0) && !this.dirty.has(spaceId)) {
            // Read before the notified commit was visible to this connection: keep the newer cv, merge settings.
            const known = this.spaces.get(spaceId);
            if (known)
              this.spaces.set(
                spaceId,
                entryOf({ ...row, cv: known.row.cv, minCv: Math.max(row.minCv, known.row.minCv) }),
              );
          } else this.spaces.set(spaceId, entryOf(row));
        }
      } catch (err) {
        // The store is unreachable: keep serving what we know; the poll retries.
        this.log.warn({ err: (err as Error).message, spaceId }, 'could not re-read a space after a publish');
      } finally {
        this.reading.delete(spaceId);
      }
    })();
  }
}

const attached = new WeakMap<Store, SpaceDirectory>();

/** Makes `loadSpace` (src/delivery/delivery-service.ts) read this store's spaces from the directory. */
export function attachSpaceDirectory(store: Store, directory: SpaceDirectory): () => void {
  attached.set(store, directory);
  return () => {
    if (attached.get(store) === directory) attached.delete(store);
  };
}

export function spaceDirectoryOf(store: Store): SpaceDirectory | undefined {
  return attached.get(store);
}
