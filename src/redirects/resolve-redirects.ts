import type { EntrySnapshot } from '../content/model.js';
import { readEntriesAt } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import { redirectKey } from './redirect-model.js';
import { findRedirectRowsAt, listRedirectRowsAt, type RedirectRow } from './redirects-repo.js';

/** A redirect as delivered (spec 2.6). */
export interface DeliveredRedirect {
  from: string;
  /** The target's path in the requested locale, a URL, or null when the target page was deleted. */
  to: string | null;
  status: number;
}

/**
 * Resolves a redirect's target at read time (spec 2.6): an entry target answers the entry's path in the
 * locale at this cv, so a page that moved again is followed (rule 2, no chains); a deleted target answers
 * `to: null` with 410; an unpublished target leaves the redirect out (null) until it is published again
 * (rule 4).
 */
export function resolveTarget(
  row: RedirectRow,
  targets: ReadonlyMap<string, EntrySnapshot>,
  locale: string,
): { to: string | null; status: number } | null {
  if (row.status === 410) return { to: null, status: 410 };
  if (row.toUrl !== null) return { to: row.toUrl, status: row.status };
  const path = row.toEntry === null ? undefined : targets.get(row.toEntry)?.paths?.[locale];
  return path === undefined ? null : { to: path, status: row.status };
}

async function targetsOf(store: Store, spaceId: string, rows: readonly RedirectRow[], cv: number) {
  const ids = [...new Set(rows.flatMap((r) => (r.toEntry !== null && r.status !== 410 ? [r.toEntry] : [])))];
  return readEntriesAt(store, spaceId, ids, cv);
}

/**
 * The redirect from a path that no page occupies (the caller looked for a page first, rule 3), in a locale
 * at cv: the locale's own redirect before a shared one.
 */
export async function redirectForPath(
  store: Store,
  spaceId: string,
  locale: string,
  path: string,
  cv: number,
): Promise<{ to: string | null; status: number } | null> {
  const rows = await findRedirectRowsAt(store, spaceId, locale, redirectKey(path), cv);
  if (rows.length === 0) return null;
  const targets = await targetsOf(store, spaceId, rows, cv);
  for (const row of rows) {
    const resolved = resolveTarget(row, targets, locale);
    if (resolved) return resolved;
  }
  return null;
}

/** Every redirect of a locale at cv (shared ones and the locale's own), targets resolved (spec 4.2). */
export async function redirectsFor(
  store: Store,
  spaceId: string,
  locale: string,
  cv: number,
): Promise<DeliveredRedirect[]> {
  const rows = await listRedirectRowsAt(store, spaceId, locale, cv);
  const targets = await targetsOf(store, spaceId, rows, cv);
  const out: DeliveredRedirect[] = [];
  const taken = new Set<string>();
  // Rows come ordered by path key, the locale's own before shared ones: the first resolvable one wins.
  for (const row of rows) {
    if (taken.has(row.fromKey)) continue;
    const resolved = resolveTarget(row, targets, locale);
    if (!resolved) continue;
    taken.add(row.fromKey);
    out.push({ from: row.fromPath, ...resolved });
  }
  return out;
}
