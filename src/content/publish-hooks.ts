import type { Transaction } from 'kysely';
// Types only: the list domain is above content/, and type imports order nothing at run time.
import type { SearchVectors } from '../delivery/list/search-vectors.js';
import type { StoreDialect } from '../store/dialect/dialect.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import type { EntrySnapshot } from './model.js';

/**
 * What publishing derives beyond the published log, through hooks each domain registers: the list rows
 * (src/delivery/list/), the semantic index's queue (src/search/), automatic redirects (src/redirects/) and
 * `menu.updated` (src/menus/). Those domains sit above content/ in the import graph (docs/architecture.md), so
 * content/ calls them only through this registry; the composition root fills it (src/wiring/publish.ts) before
 * anything publishes. Hooks run inside the publish's transaction, in the order they were registered.
 */

/** A published page whose paths changed in a publish: its paths before (open version) and after. */
export interface PathChange {
  entryId: string;
  before: Record<string, string>;
  after: Record<string, string>;
}

/** What `publishInTx` changed, for the hooks that follow entries (redirects, menus). */
export interface EntriesPublished {
  store: Store;
  tx: Transaction<Database>;
  spaceId: string;
  cv: number;
  /** Pages (not folders) whose open paths changed. */
  changes: readonly PathChange[];
  /** Entries deleted in this operation. */
  deleted: readonly string[];
  /** Entries whose delivered path or visibility changed (they appeared, moved, went away). */
  affected: ReadonlySet<string>;
  at: string;
}

export interface PublishHooks {
  /** A new version of an entry at `cv`, its open one closed (the log's row is written already). */
  entryVersion?(
    tx: Transaction<Database>,
    dialect: StoreDialect,
    spaceId: string,
    cv: number,
    snapshot: EntrySnapshot,
    typeKind: string,
  ): Promise<void>;
  /** An entry left the published log at `cv` (unpublished or deleted). */
  entryClosed?(
    tx: Transaction<Database>,
    dialect: StoreDialect,
    spaceId: string,
    entryId: string,
    cv: number,
  ): Promise<void>;
  /**
   * The first versions of many entries at `cv`, in bulk (an import). `vectors`: what the list domain computed
   * beside the transaction for them (`startSearchVectors`).
   */
  firstVersions?(
    tx: Transaction<Database>,
    dialect: StoreDialect,
    spaceId: string,
    cv: number,
    items: readonly { snapshot: EntrySnapshot; typeKind: string }[],
    vectors?: SearchVectors,
  ): Promise<void>;
  /** History closed at or before `minCv` was forgotten. */
  pruned?(tx: Transaction<Database>, dialect: StoreDialect, spaceId: string, minCv: number): Promise<void>;
  /** Every publish, after its work and the `content.published` event, before pruning. */
  published?(tx: Transaction<Database>, store: Store, spaceId: string, cv: number): Promise<void>;
  /** After `publishInTx` wrote and closed versions: what follows pages' paths and visibility. */
  entriesPublished?(change: EntriesPublished): Promise<void>;
}

const names: string[] = [];
let registered: readonly PublishHooks[] = [];

/** Adds a domain's hooks (once per name: wiring twice, as tests and the CLI may, changes nothing). */
export function registerPublishHooks(name: string, hooks: PublishHooks): void {
  if (names.includes(name)) return;
  names.push(name);
  registered = Object.freeze([...registered, hooks]);
}

/**
 * The registered hooks, in order. Publishing without them would write a log the list tables, redirects and menus
 * do not follow, so an unwired process fails loudly instead.
 */
export function publishHooks(): readonly PublishHooks[] {
  if (registered.length === 0)
    throw new Error('Publish hooks are not registered: call wireDomains() (src/wiring/publish.ts) first.');
  return registered;
}
