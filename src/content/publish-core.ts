import type { Transaction } from 'kysely';
import { conflict } from '../errors/errors.js';
import { type EntryRow, listEntries, listTypes, updateEntryState } from '../store/authoring-repo.js';
import { readOpenPaths } from '../store/log-repo.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { type ContentTypeDef, type FieldValues, hasPaths, type SpaceSettings } from './model.js';
import { pathKey } from '../lib/path-key.js';
import { computePaths } from './paths.js';
import { snapshotOf, treeNode } from './publish.js';
import { type PathChange, publishHooks } from './publish-hooks.js';
import { closePublishedEntry, publishEntryVersion } from './publish-log.js';

/** What one publishing operation changes; everything runs in one transaction at one cv. */
export interface PublishPlan {
  /** Entries whose fields go live: `'draft'` publishes the draft (or re-publishes), an object these fields. */
  publish?: ReadonlyMap<string, FieldValues | 'draft'>;
  /** Entries whose place in the tree (slug, parent, position) changed in this transaction. */
  restructured?: readonly string[];
  /** Entries taken out of the published log. */
  unpublish?: readonly string[];
  /** Entries deleted in this transaction (their authoring rows are gone already). */
  deleted?: readonly string[];
}

export interface PublishOutcome {
  /** Entries that got a new published version. */
  republished: string[];
  /** Entries whose delivered path or visibility changed (they appeared, moved, went away). */
  affected: Set<string>;
}

const samePaths = (a: Record<string, string> | null, b: Record<string, string> | null): boolean =>
  JSON.stringify(a && Object.entries(a).sort()) === JSON.stringify(b && Object.entries(b).sort());

function subtree(roots: Iterable<string>, rows: readonly EntryRow[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const r of rows)
    if (r.parentId !== null) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r.id]);
  const out = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * The nucleus of publishing (DESIGN.md "published log", steps 2–4), run inside `withPublish` at `cv`:
 * writes new versions of the entries published and of every published entry whose paths changed with them
 * (descendants of a moved or renamed page or folder), closes unpublished and deleted ones, refuses two pages
 * on one path (409), writes automatic redirects from old paths (spec 2.6), and enqueues `redirect.updated`
 * and `menu.updated` when what redirects and menus deliver changed.
 */
export async function publishInTx(
  store: Store,
  tx: Transaction<Database>,
  spaceId: string,
  cv: number,
  settings: SpaceSettings,
  plan: PublishPlan,
  at: string,
): Promise<PublishOutcome> {
  const types = new Map((await listTypes(store, spaceId, tx)).map((t) => [t.key, t]));
  const rows = await listEntries(store, spaceId, tx);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = computePaths(rows.map(treeNode), types, settings);
  const publish = plan.publish ?? new Map<string, FieldValues | 'draft'>();
  const restructured = new Set(plan.restructured ?? []);
  const unpublish = new Set(plan.unpublish ?? []);
  const deleted = plan.deleted ?? [];
  const candidates = subtree([...publish.keys(), ...restructured], rows);
  const before = await readOpenPaths(store, tx, spaceId, [...candidates, ...unpublish, ...deleted]);
  const kindOf = (row: EntryRow) => types.get(row.type)?.kind ?? 'page';

  const outcome: PublishOutcome = { republished: [], affected: new Set() };
  const changes: PathChange[] = [];
  for (const id of candidates) {
    const row = byId.get(id);
    if (!row || unpublish.has(id)) continue;
    const mode = publish.get(id);
    const wasOpen = before.has(id);
    const oldPaths = before.get(id) ?? null;
    const newPaths = paths.get(id) ?? null;
    const moved = wasOpen && !samePaths(oldPaths, newPaths);
    let fields: FieldValues;
    if (mode !== undefined) fields = mode === 'draft' ? (row.draftFields ?? row.publishedFields ?? {}) : mode;
    else if (row.publishedFields !== null && wasOpen && (moved || restructured.has(id)))
      fields = row.publishedFields;
    else continue;
    // A move or rename republishes without changing publishedAt; publishing content sets it.
    const publishedAt = mode !== undefined ? at : (row.publishedAt ?? at);
    const firstPublishedAt = row.firstPublishedAt ?? publishedAt;
    const snapshot = snapshotOf(row, fields, newPaths, { publishedAt, firstPublishedAt });
    await publishEntryVersion(tx, store.dialect, spaceId, cv, snapshot, kindOf(row));
    if (mode !== undefined) {
      await updateEntryState(tx, spaceId, id, {
        publishedFields: fields,
        ...(mode === 'draft' ? { draftFields: null } : {}),
        publishedAt,
        firstPublishedAt,
        updatedAt: at,
      });
    }
    outcome.republished.push(id);
    if (!wasOpen || moved) outcome.affected.add(id);
    if (moved && oldPaths && newPaths && kindOf(row) !== 'folder')
      changes.push({ entryId: id, before: oldPaths, after: newPaths });
  }
  checkUniquePaths(rows, types, paths, new Set(outcome.republished), publish, unpublish);

  for (const id of unpublish) {
    const row = byId.get(id);
    if (before.has(id)) {
      await closePublishedEntry(tx, store.dialect, spaceId, id, cv);
      outcome.affected.add(id);
    }
    if (row && row.publishedFields !== null) {
      // The published fields stay as the draft, so publishing again restores the page as it was.
      await updateEntryState(tx, spaceId, id, {
        publishedFields: null,
        draftFields: row.draftFields ?? row.publishedFields,
        publishedAt: null,
        updatedAt: at,
      });
    }
  }
  for (const id of deleted) {
    await closePublishedEntry(tx, store.dialect, spaceId, id, cv);
    outcome.affected.add(id);
  }

  // Automatic redirects and `redirect.updated` (src/redirects/), then `menu.updated` (src/menus/).
  const change = { store, tx, spaceId, cv, changes, deleted, affected: outcome.affected, at };
  for (const h of publishHooks()) await h.entriesPublished?.(change);
  return outcome;
}

/** Two published pages never share a path in a locale (409 `conflict`, and the transaction rolls back). */
function checkUniquePaths(
  rows: readonly EntryRow[],
  types: ReadonlyMap<string, ContentTypeDef>,
  paths: ReadonlyMap<string, Record<string, string>>,
  changed: ReadonlySet<string>,
  publish: ReadonlyMap<string, unknown>,
  unpublish: ReadonlySet<string>,
): void {
  if (changed.size === 0) return;
  const owners = new Map<string, string>();
  const live = rows.filter((r) => {
    const type = types.get(r.type);
    if (!hasPaths(type) || type?.kind === 'folder' || unpublish.has(r.id)) return false;
    return r.publishedFields !== null || publish.has(r.id);
  });
  // Entries changed by this operation claim their paths last, so the conflict names one of them.
  live.sort((a, b) => Number(changed.has(a.id)) - Number(changed.has(b.id)));
  for (const r of live) {
    for (const [locale, path] of Object.entries(paths.get(r.id) ?? {})) {
      const key = `${locale} ${pathKey(path)}`;
      const owner = owners.get(key);
      if (owner !== undefined && (changed.has(r.id) || changed.has(owner))) {
        throw conflict(`The path "${path}" (${locale}) is already the path of ${owner}.`, {
          details: { path, locale, entryId: owner },
        });
      }
      owners.set(key, r.id);
    }
  }
}
