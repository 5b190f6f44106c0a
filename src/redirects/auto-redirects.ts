import type { Transaction } from 'kysely';
import { enqueueEvent } from '../jobs/outbox-repo.js';
import type { Database } from '../store/schema.js';
import { redirectKey } from './redirect-model.js';
import {
  closeRedirects,
  newRedirectId,
  nextRedirectPosition,
  openRedirectsFrom,
  openRedirectsTo,
  putRedirects,
  type RedirectRow,
} from './redirects-repo.js';
import type { PathChange, PublishHooks } from '../content/publish-hooks.js';

/** The old paths that become redirects: every locale whose path changed beyond case (spec 2.6 rule 1). */
export function movedFrom(change: PathChange): { locale: string; from: string }[] {
  const out: { locale: string; from: string }[] = [];
  for (const [locale, after] of Object.entries(change.after)) {
    const before = change.before[locale];
    if (before !== undefined && redirectKey(before) !== redirectKey(after))
      out.push({ locale, from: before });
  }
  return out;
}

/**
 * Writes automatic redirects for pages that moved, inside the publish transaction. A redirect names the page,
 * not its path, so earlier redirects to it follow it without being rewritten (spec 2.6 rule 2: no chains).
 * The newest move owns an old path in its locale (an older redirect from it is replaced), and automatic
 * redirects from a page's own new path are dropped (it moved back). Returns whether anything was written.
 */
export async function recordPathChanges(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  changes: readonly PathChange[],
  now: string,
): Promise<boolean> {
  const moves = changes.flatMap((c) =>
    movedFrom(c).map((m) => ({ ...m, entryId: c.entryId, key: redirectKey(m.from) })),
  );
  if (moves.length === 0) return false;
  const arrivals = changes.flatMap((c) =>
    Object.entries(c.after).map(([locale, path]) => ({ locale, key: redirectKey(path), entryId: c.entryId })),
  );
  const existing = await openRedirectsFrom(tx, spaceId, [
    ...moves.map((m) => m.key),
    ...arrivals.map((a) => a.key),
  ]);
  const replaced = new Set(moves.map((m) => `${m.locale} ${m.key}`));
  const back = new Set(arrivals.map((a) => `${a.locale} ${a.key} ${a.entryId}`));
  const close = existing.filter(
    (r) =>
      r.locale !== null &&
      (replaced.has(`${r.locale} ${r.fromKey}`) ||
        (r.source === 'auto' && back.has(`${r.locale} ${r.fromKey} ${r.toEntry ?? ''}`))),
  );
  await closeRedirects(
    tx,
    spaceId,
    close.map((r) => r.id),
    cv,
  );
  let position = await nextRedirectPosition(tx, spaceId);
  const rows: RedirectRow[] = moves.map((m) => ({
    id: newRedirectId(),
    locale: m.locale,
    fromPath: m.from,
    fromKey: m.key,
    toEntry: m.entryId,
    toUrl: null,
    status: 301,
    source: 'auto',
    position: position++,
    createdAt: now,
  }));
  await putRedirects(tx, spaceId, cv, rows);
  return true;
}

/** Redirects to deleted entries answer 410 with `to: null` from this cv on (spec 2.6 rule 4). */
export async function markTargetsGone(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  deleted: readonly string[],
): Promise<boolean> {
  if (deleted.length === 0) return false;
  const rows = (await openRedirectsTo(tx, spaceId, deleted)).filter((r) => r.status !== 410);
  await putRedirects(
    tx,
    spaceId,
    cv,
    rows.map((r) => ({ ...r, toUrl: null, status: 410 })),
  );
  return rows.length > 0;
}

/** Whether any current redirect points at one of these entries (their change changes what it delivers). */
export async function redirectsTarget(
  tx: Transaction<Database>,
  spaceId: string,
  entryIds: Iterable<string>,
): Promise<boolean> {
  const ids = [...entryIds];
  return ids.length > 0 && (await openRedirectsTo(tx, spaceId, ids)).length > 0;
}

/** spec 2.6 rule 6 and spec 6: every redirect change sends `redirect.updated` carrying the new cv. */
export async function enqueueRedirectUpdated(
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
): Promise<void> {
  await enqueueEvent(tx, spaceId, 'redirect.updated', { cv });
}

/**
 * Publishing's hook (src/content/publish-hooks.ts): automatic redirects from pages' old paths, 410s for deleted
 * targets, and `redirect.updated` when what redirects deliver changed.
 */
export const redirectPublishHooks: PublishHooks = {
  async entriesPublished({ tx, spaceId, cv, changes, deleted, affected, at }) {
    const wrote = await recordPathChanges(tx, spaceId, cv, changes, at);
    const gone = await markTargetsGone(tx, spaceId, cv, deleted);
    if (wrote || gone || (await redirectsTarget(tx, spaceId, affected)))
      await enqueueRedirectUpdated(tx, spaceId, cv);
  },
};
