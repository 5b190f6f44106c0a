// What every part of a span's computation shares: the two ends as views, the changes between them, the locales,
// and one time slicer, so no part holds the event loop for long.

import type { Crop } from '../lib/crop.js';
import type { AssetDoc, EntrySnapshot, SpaceSettings } from '../content/model.js';
import { localeChain } from '../content/locales.js';
import { PublishedView } from '../delivery/content-view.js';
import { chainsOf } from '../delivery/list/index-values.js';
import { TimeSlicer } from '../lib/time-slice.js';
import type { Store } from '../store/open-store.js';
import type { SpanChanges } from './span-changes.js';
import type { CvRange } from './sync-repo.js';

export type Side = 'before' | 'after';

export interface SpanRequest {
  store: Store;
  spaceId: string;
  settings: SpaceSettings;
  range: CvRange;
  assetUrl: (asset: AssetDoc, crop?: Crop | null) => string;
}

export class SpanContext {
  readonly locales: readonly string[];
  readonly chains: Map<string, string[]>;
  readonly views: Record<Side, PublishedView>;
  readonly slicer = new TimeSlicer();

  constructor(
    readonly req: SpanRequest,
    readonly changes: SpanChanges,
  ) {
    this.locales = req.settings.locales.map((l) => l.code);
    this.chains = chainsOf(req.settings);
    this.views = {
      before: new PublishedView(req.store, req.spaceId, req.range.from),
      after: new PublishedView(req.store, req.spaceId, req.range.to),
    };
  }

  chain(locale: string): string[] {
    return this.chains.get(locale) ?? localeChain(this.req.settings, locale);
  }

  /** Bit `i` stands for `locales[i]`. */
  get allLocales(): number {
    return (1 << this.locales.length) - 1;
  }

  /**
   * Entries as published at the end, read a slice at a time: parsing many documents at once would hold the event
   * loop (SQLite reads synchronously).
   */
  async entriesAfter(ids: Iterable<string>): Promise<Map<string, EntrySnapshot>> {
    const all = [...new Set(ids)];
    const out = new Map<string, EntrySnapshot>();
    for (let i = 0; i < all.length; i += 100) {
      for (const [id, s] of await this.views.after.entries(all.slice(i, i + 100))) out.set(id, s);
      await this.slicer.tick();
    }
    return out;
  }

  /**
   * Entries as published at one end: a changed entry from the span's changes, any other from the log (an entry
   * without a new version in the span has the same version at both ends, so one read at the end serves both).
   */
  async entriesAt(side: Side, ids: Iterable<string>): Promise<Map<string, EntrySnapshot>> {
    const out = new Map<string, EntrySnapshot>();
    if (side === 'before' && this.req.range.from === 0) return out;
    const rest: string[] = [];
    for (const id of new Set(ids)) {
      const change = this.changes.entries.get(id);
      if (change === undefined) rest.push(id);
      else if (change[side] !== undefined) out.set(id, change[side]);
    }
    if (rest.length > 0) for (const [id, s] of await this.entriesAfter(rest)) out.set(id, s);
    return out;
  }
}
