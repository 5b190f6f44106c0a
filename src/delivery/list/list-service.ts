import { LRUCache } from 'lru-cache';
import type { EntrySnapshot, TypeMap } from '../../content/model.js';
import { deepFreeze } from '../../lib/deep-freeze.js';
import { TimeSlicer } from '../../lib/time-slice.js';
import { pathKey } from '../../lib/path-key.js';
import { single } from '../params.js';
import { invalidQuery } from '../../errors/errors.js';
import { assetUrlFor, type DeliveryDeps, type Scope } from '../delivery-service.js';
import { type DeliveredEntry, type Included, resolveEntries } from '../resolve.js';
import { entryBytes, type RenderedEntries, renderPrefix } from '../rendered-entries.js';
import { readCursor, signCursor } from './cursor.js';
import { chainsOf } from './index-values.js';
import { digest, listedTypes, type ListQuery, parseListQuery } from './list-params.js';
import { folderPath } from './list-query-repo.js';
import { componentCount } from './order.js';
import type { ListAnswer, ListPlan, Scalar } from './plan.js';
import { previewList } from './preview-list.js';
import type { RowsIndex } from './rows/rows-index.js';
import { slotLayout } from './slots.js';
import { sqlList } from './sql-list.js';

export interface ListDeps extends DeliveryDeps {
  /** `deriveKey(masterKey, 'cursor')`. */
  cursorKey: Buffer;
  /** Rendered published entries with their JSON (RENDER_CACHE_MB); null: every list renders anew. */
  rendered: RenderedEntries | null;
  /** List rows in memory (LIST_INDEX_MB); null: every published list is SQL. */
  rowsIndex: RowsIndex | null;
}

export interface ListResponse {
  items: DeliveredEntry[];
  included: Included;
  nextCursor: string | null;
  total: number;
  cv: number;
}

const viewTag = (scope: Scope): string =>
  scope.view.mode === 'release' ? `release:${scope.params.release ?? ''}` : scope.view.mode;

/**
 * The cv a request reads at: the cursor's (spec 4.3: pages stay on the version the listing started at), checked
 * against an explicit `cv`. Returns the query to open the scope with. Draft and release cursors carry no cv.
 */
export function queryWithCursorCv(deps: ListDeps, query: Record<string, unknown>): Record<string, unknown> {
  const cursor = query.cursor;
  if (typeof cursor !== 'string' || query.draft !== undefined || query.release !== undefined) return query;
  const { cv } = readCursor(deps.cursorKey, cursor);
  if (query.cv !== undefined && query.cv !== String(cv))
    throw invalidQuery('cv: differs from the cv the cursor was issued at.', 'cv');
  return { ...query, cv: String(cv) };
}

async function folderInView(scope: Scope, types: TypeMap, under: string): Promise<string | null> {
  const folders = [...types.values()].filter((t) => t.kind === 'folder').map((t) => t.key);
  const key = pathKey(under);
  const found = (await scope.view.entriesOfTypes(folders)).find((s) => {
    const p = s.paths?.[scope.params.locale];
    return p !== undefined && pathKey(p) === key;
  });
  return found?.paths?.[scope.params.locale] ?? null;
}

// The folder types of a cv's type definitions, found once per TypeMap (every list request needs them).
const folderTypeKeys = new WeakMap<TypeMap, readonly string[]>();
function folderTypesOf(types: TypeMap): readonly string[] {
  let keys = folderTypeKeys.get(types);
  if (keys === undefined) {
    keys = Object.freeze([...types.values()].filter((t) => t.kind === 'folder').map((t) => t.key));
    folderTypeKeys.set(types, keys);
  }
  return keys;
}

/** The plan the evaluators take (plan.ts) of a parsed query, with the folder path and cursor resolved. */
export function listPlan(
  q: ListQuery,
  types: TypeMap,
  at: Pick<ListPlan, 'spaceId' | 'cv' | 'locale' | 'under' | 'after'>,
): ListPlan {
  return {
    ...at,
    type: q.type,
    folderTypes: folderTypesOf(types),
    conds: q.conds,
    words: q.words,
    sort: q.sort,
    limit: q.limit,
    layout: q.type === null ? null : slotLayout(types.get(q.type)),
  };
}

/**
 * Parsed queries per type definitions (one TypeMap per cv) and locale, by their parameters: parsing and binding a
 * list query is a measurable part of a request, and cycled queries (pages of a site, a CDN's misses) repeat.
 * Frozen, since every request with the same parameters shares it. Queries that fail to parse are not kept.
 */
const MAX_KEPT_QUERY = 2048;
const parsedQueries = new WeakMap<TypeMap, LRUCache<string, { q: ListQuery; bound: Map<string, string> }>>();

function parsedQuery(
  query: Record<string, unknown>,
  types: TypeMap,
  locale: string,
): { q: ListQuery; bound: Map<string, string> } {
  let cache = parsedQueries.get(types);
  if (!cache) parsedQueries.set(types, (cache = new LRUCache({ max: 2000 })));
  // The cursor is left out of the key: every page of a listing shares the rest (parseListQuery only reads it).
  const { cursor, ...rest } = query;
  const key = `${locale}\n${JSON.stringify(rest)}`;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    parsed = { q: deepFreeze(parseListQuery(rest, types, locale)), bound: new Map() };
    // Long queries (a URL may carry 16 KB) are parsed each time rather than held.
    if (key.length <= MAX_KEPT_QUERY) cache.set(key, parsed);
  }
  if (cursor === undefined) return parsed;
  return { q: { ...parsed.q, cursor: single({ cursor }, 'cursor') ?? null }, bound: parsed.bound };
}

/** GET /entries (spec 4.2, 4.3). */
export async function listEntries(
  deps: ListDeps,
  scope: Scope,
  query: Record<string, unknown>,
): Promise<ListResponse> {
  const types = await scope.view.types();
  const parsed = parsedQuery(query, types, scope.params.locale);
  const { q } = parsed;
  const published = scope.view.mode === 'published';
  const view = viewTag(scope);
  let bound = parsed.bound.get(view);
  if (bound === undefined) parsed.bound.set(view, (bound = digest(`${view}\n${q.selection}\n${q.ordering}`)));
  let after: Scalar[] | null = null;
  if (q.cursor !== null) {
    const state = readCursor(deps.cursorKey, q.cursor);
    if (state.query !== bound || state.after.length !== componentCount(q.sort))
      throw invalidQuery('cursor: belongs to another query; send the same parameters with it.', 'cursor');
    after = state.after;
  }
  const cv = scope.view.cv;
  const spaceId = scope.space.id;
  let under: string | null = null;
  if (q.under !== null) {
    under = published
      ? ((await folderPath(deps.store, spaceId, cv, scope.params.locale, pathKey(q.under)))?.path ?? null)
      : await folderInView(scope, types, q.under);
    if (under === null)
      throw invalidQuery(`under: "${q.under}" is not a folder in locale "${scope.params.locale}".`, 'under');
  }
  const plan = listPlan(q, types, { spaceId, cv, locale: scope.params.locale, under, after });

  // The evaluator: previews in memory over the view's snapshots; a published list from the rows index when it
  // answers, else SQL.
  let answer: ListAnswer;
  if (!published) {
    const all = await scope.view.entriesOfTypes(listedTypes(types).map((t) => t.key));
    answer = previewList(all, types, chainsOf(scope.space.settings), plan);
  } else
    answer =
      (await deps.rowsIndex?.answer(plan, q.selection, types)) ??
      (await sqlList(deps.store, plan, q.selection, types));
  const { rows } = answer;
  // The list's own statement is behind us (a search's ran on SQLite's reader thread: list-query-repo.ts); what
  // follows reads and renders up to 100 entries and their includes, between ticks.
  const slicer = new TimeSlicer();
  await slicer.tick();

  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > q.limit && last
      ? signCursor(deps.cursorKey, { cv, query: bound, after: last.after })
      : null;
  const versions = new Map<string, number>();
  for (const r of page) if (typeof r.cvFrom === 'number') versions.set(r.entryId, r.cvFrom);
  const found = await scope.view.entries(
    page.map((r) => r.entryId),
    versions,
  );
  const roots = page.flatMap((r) => {
    const s: EntrySnapshot | undefined = found.get(r.entryId);
    return s ? [s] : [];
  });
  const { entries, included } = await resolveEntries(scope.view, roots, {
    locale: scope.params.locale,
    chain: scope.params.chain,
    include: scope.params.include,
    fields: scope.params.fields,
    assetUrl: assetUrlFor(deps, spaceId),
    slicer,
    ...(published && deps.rendered !== null
      ? {
          rendered: {
            cache: deps.rendered,
            prefix: renderPrefix(spaceId, cv, scope.params.locale, scope.params.chain),
          },
        }
      : {}),
  });
  return { items: entries, included, nextCursor, total: answer.total, cv };
}

/**
 * The list's body as `JSON.stringify` writes it, in UTF-8, joined from each entry's bytes as the rendered cache
 * stored them: the entries are most of a list's bytes, and serialising them again, then encoding the whole body
 * (which the response cache keeps as bytes), were a large share of an uncached list's CPU.
 */
export function listBodyBytes(body: ListResponse): Buffer {
  const parts: Buffer[] = [ITEMS_OPEN];
  joinEntries(parts, body.items);
  parts.push(INCLUDED_OPEN);
  joinEntries(parts, body.included.entries);
  parts.push(
    Buffer.from(
      `],"links":${JSON.stringify(body.included.links)}},` +
        `"nextCursor":${JSON.stringify(body.nextCursor)},"total":${JSON.stringify(body.total)},"cv":${JSON.stringify(body.cv)}}`,
    ),
  );
  return Buffer.concat(parts);
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const INCLUDED_OPEN = Buffer.from('],"included":{"entries":[');
const COMMA = Buffer.from(',');

function joinEntries(parts: Buffer[], entries: readonly DeliveredEntry[]): void {
  entries.forEach((entry, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(entryBytes(entry));
  });
}
