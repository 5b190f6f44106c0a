import type { Store } from './open-store.js';

/**
 * Which entries of a space changed between two cvs, as this process learnt it from the published log:
 * the entry cache uses it to know that an entry it saw at cv A is still the same version at cv B without asking
 * the store, when no version of the entry opened or closed in (A, B].
 *
 * A log covers the cvs (since, upTo]. The first read of a space starts it empty at its cv; a read at a newer cv
 * extends it with one query of the versions that opened or closed in between (the sync feed's indexes, migration
 * 0011), run once per process and cv, whichever instance published. Past MAX_CHANGES entries (an import) the log
 * starts over at the new cv: what was seen before it is asked again, once.
 */
export interface ChangeLog {
  readonly since: number;
  readonly upTo: number;
  /** Whether no version of the entry opened or closed in (from, to]; false when the log does not cover it. */
  unchangedBetween(entryId: string, from: number, to: number): boolean;
  /**
   * Whether no version of any entry (of `type`, when given) opened or closed in (from, to] (a publish of menus,
   * redirects, forms or assets only, or of other types); false when the log does not cover it, or when such an entry
   * changed after `from`, even past `to`.
   */
  quietBetween(from: number, to: number, type?: string): boolean;
}

const MAX_CHANGES = 50_000;

class SpaceChanges implements ChangeLog {
  since: number;
  upTo: number;
  /** The last cv in (since, upTo] at which each changed entry opened or closed a version. */
  private readonly changedAt = new Map<string, number>();
  /** The last cv in (since, upTo] at which any entry changed; `since` when none did. */
  private lastChange: number;
  /** The same per entry type. */
  private readonly typeChangedAt = new Map<string, number>();
  private extending: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly spaceId: string,
    cv: number,
  ) {
    this.since = cv;
    this.upTo = cv;
    this.lastChange = cv;
  }

  unchangedBetween(entryId: string, from: number, to: number): boolean {
    if (from < this.since || to > this.upTo || from > to) return false;
    return (this.changedAt.get(entryId) ?? -1) <= from;
  }

  quietBetween(from: number, to: number, type?: string): boolean {
    if (from < this.since || to > this.upTo || from > to) return false;
    return (type === undefined ? this.lastChange : (this.typeChangedAt.get(type) ?? this.since)) <= from;
  }

  async through(cv: number): Promise<void> {
    // One extension at a time: requests arriving meanwhile wait for it, then extend further if they need to.
    while (this.upTo < cv) {
      this.extending ??= this.extend(cv).finally(() => {
        this.extending = undefined;
      });
      await this.extending;
    }
  }

  private async extend(to: number): Promise<void> {
    const from = this.upTo;
    const rows = await this.store.db
      .selectFrom('entry_versions')
      .select(['entry_id', 'type', 'cv_from', 'cv_to'])
      .where('space_id', '=', this.spaceId)
      .where((eb) =>
        eb.or([
          eb.and([eb('cv_from', '>', from), eb('cv_from', '<=', to)]),
          eb.and([eb('cv_to', '>', from), eb('cv_to', '<=', to)]),
        ]),
      )
      .limit(MAX_CHANGES + 1)
      .execute();
    if (rows.length > MAX_CHANGES || this.changedAt.size + rows.length > MAX_CHANGES) {
      this.changedAt.clear();
      this.typeChangedAt.clear();
      this.since = to;
      this.upTo = to;
      this.lastChange = to;
      return;
    }
    for (const row of rows) {
      const opened = Number(row.cv_from);
      const closed = row.cv_to === null ? null : Number(row.cv_to);
      const at = Math.max(opened <= to ? opened : -1, closed !== null && closed <= to ? closed : -1);
      if (at > (this.changedAt.get(row.entry_id) ?? -1)) this.changedAt.set(row.entry_id, at);
      if (at > this.lastChange) this.lastChange = at;
      if (at > (this.typeChangedAt.get(row.type) ?? -1)) this.typeChangedAt.set(row.type, at);
    }
    this.upTo = to;
  }
}

/** The change logs of one store's spaces (kept with its entry cache). */
export class EntryChanges {
  private readonly spaces = new Map<string, SpaceChanges>();
  constructor(private readonly store: Store) {}

  /** The space's log, extended through `cv` (one query when the space's cv moved since the last read). */
  async through(spaceId: string, cv: number): Promise<ChangeLog> {
    let log = this.spaces.get(spaceId);
    if (!log) this.spaces.set(spaceId, (log = new SpaceChanges(this.store, spaceId, cv)));
    await log.through(cv);
    return log;
  }
}
