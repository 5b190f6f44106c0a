import { LRUCache } from 'lru-cache';
import type { EntrySnapshot } from '../content/model.js';
import { assetUrlFor, type DeliveryDeps, type Scope } from '../delivery/delivery-service.js';
import { searchWords } from '../delivery/list/index-values.js';
import { listedTypes, parseListQuery } from '../delivery/list/list-params.js';
import { pageList } from '../delivery/list/list-query-repo.js';
import { listPlan } from '../delivery/list/list-service.js';
import { type DeliveredEntry, type Included, resolveEntries } from '../delivery/resolve.js';
import { FolioError, invalidQuery, notFound, unavailable } from '../errors/errors.js';
import { TimeSlicer } from '../lib/time-slice.js';
import { type Embedder, EmbedderUnavailable } from './embedder.js';
import type { QueryQueue } from './query-queue.js';
import { readSearchState } from '../store/search-state-repo.js';
import { searchIndexesOf } from './search-indexes.js';
import { chunkText, highlight, semanticTexts } from './search-text.js';

/** spec 4.2 `/search`, 8: `q` up to 500 characters, `limit` 1–20 (default 10). */
export const MAX_QUERY = 500;
export const MAX_LIMIT = 20;
const DEFAULT_LIMIT = 10;
/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (Cormack et al. 2009): ranks far down still count, a little. */
const RRF_K = 60;

export const SEARCH_PARAMS = ['q', 'type', 'limit', 'locale', 'include', 'fields', 'cv', 'draft', 'release'];

export interface SearchDeps extends DeliveryDeps {
  embedder: Embedder;
  /** The budget of the in-process vector indexes (SEARCH_INDEX_MAX_MB), in bytes. */
  indexMaxBytes: number;
  /** Query embeddings waiting for the model, bounded (SEARCH_QUEUE_MAX). */
  queue: QueryQueue;
}

export interface SearchItem {
  entry: DeliveredEntry;
  /** The fused score (reciprocal rank fusion of meaning and words): higher is better, comparable within one answer. */
  score: number;
  /** A passage of the entry's text that matched, in the requested locale. */
  highlight: string;
}

export interface SearchResponse {
  items: SearchItem[];
  included: Included;
  cv: number;
}

export interface SearchQuery {
  q: string;
  type: string | null;
  limit: number;
}

/** Checks `q`, `type` and `limit` (400 `invalid_query` naming the parameter). */
export function parseSearchQuery(query: Record<string, unknown>): SearchQuery {
  const one = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw invalidQuery(`Parameter "${name}" must be given once.`, name);
    return v;
  };
  const q = (one('q') ?? '').trim();
  if (q === '') throw invalidQuery('q: give the text to search for.', 'q');
  if (q.length > MAX_QUERY) throw invalidQuery(`q: at most ${MAX_QUERY} characters.`, 'q');
  if (q.includes('\u0000')) throw invalidQuery('q: must not contain NUL.', 'q');
  const rawLimit = one('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    limit = /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT))
      throw invalidQuery(`limit: a whole number from 1 to ${MAX_LIMIT}.`, 'limit');
  }
  const type = one('type') ?? null;
  return { q, type, limit };
}

/** Query vectors of recent searches: the same words are embedded once. */
const queryVectors = new WeakMap<Embedder, LRUCache<string, Promise<Float32Array>>>();

function embedQuery(embedder: Embedder, queue: QueryQueue, q: string): Promise<Float32Array> {
  let cache = queryVectors.get(embedder);
  if (!cache) queryVectors.set(embedder, (cache = new LRUCache({ max: 5000 })));
  const key = q.replace(/\s+/g, ' ');
  let vector = cache.get(key);
  if (!vector) {
    // Only a query the model has to embed takes a place in the queue (or is refused 503 when it is full).
    const made = queue.run(() => embedder.embed([key], 'query')).then(([v]) => v ?? new Float32Array(0));
    // A failure is not remembered: the next search asks the provider again.
    made.catch(() => cache.delete(key));
    cache.set(key, (vector = made));
  }
  return vector;
}

/** Entry ids in order of the full-text rank of `/entries?search=` (empty when `q` has no searchable word). */
async function wordRanking(deps: SearchDeps, scope: Scope, q: SearchQuery): Promise<string[]> {
  const types = await scope.view.types();
  // Any word counts, ranked (bm25 / ts_rank), so a question phrased in other words still meets the entries that
  // share its telling ones; words under three letters rarely tell and would match nearly every entry.
  const words = searchWords(q.q)
    .filter((w) => w.length >= 3)
    .slice(0, 12);
  if (words.length === 0) return [];
  const query = { search: words.join(' '), limit: String(CANDIDATES), ...(q.type ? { type: q.type } : {}) };
  let parsed;
  try {
    parsed = parseListQuery(query, types, scope.params.locale);
  } catch (err) {
    if (err instanceof FolioError && err.status === 400) return [];
    throw err;
  }
  const plan = listPlan(parsed, types, {
    spaceId: scope.space.id,
    cv: scope.view.cv,
    locale: scope.params.locale,
    under: null,
    after: null,
  });
  // No `total`: a count over every match is what a listing needs, not a fusion.
  const rows = await pageList(deps.store, { ...plan, anyWord: true }, false);
  return rows.slice(0, CANDIDATES).map((r) => r.entryId);
}

/**
 * GET /search (spec 4.2): the query's vector against the locale's index at the request's cv, fused by
 * reciprocal rank with the full-text rank of `/entries?search=`, so exact words and meaning both count.
 * `complete` is false while the index is behind the cv: the answer is then not cached (it will get better).
 */
export async function searchEntries(
  deps: SearchDeps,
  scope: Scope,
  query: Record<string, unknown>,
): Promise<{ body: SearchResponse; complete: boolean }> {
  const q = parseSearchQuery(query);
  if (scope.view.mode !== 'published')
    throw invalidQuery(
      'Search covers published content only: drop draft and release.',
      scope.params.draft ? 'draft' : 'release',
    );
  if (!scope.space.settings.ai) throw notFound('Semantic search is not switched on for this space.');
  const types = await scope.view.types();
  if (q.type !== null && !listedTypes(types).some((t) => t.key === q.type))
    throw invalidQuery(`type: "${q.type}" is not a page or collection type of this space.`, 'type');

  const spaceId = scope.space.id;
  const locale = scope.params.locale;
  const cv = scope.view.cv;
  const state = await readSearchState(deps.store.db, spaceId);
  const current = state !== undefined && state.model === deps.embedder.model;
  const complete = current && state.indexedCv >= cv;

  let vector: Float32Array;
  try {
    vector = await embedQuery(deps.embedder, deps.queue, q.q);
  } catch (err) {
    if (err instanceof EmbedderUnavailable)
      throw unavailable('The search model is unavailable; try again shortly.', { cause: err });
    throw err;
  }
  // Loading an index and scanning it grow with the space: both let other requests run between slices.
  const slicer = new TimeSlicer();
  const index = current
    ? await searchIndexesOf(deps.store, deps.indexMaxBytes).at(spaceId, locale, state, scope.space.cv, slicer)
    : null;
  const hits = index ? await index.nearestSliced(vector, CANDIDATES * 2, { cv, type: q.type }, slicer) : [];
  // Chunks → entries: an entry ranks by its best chunk, which is also the passage it is highlighted by.
  const bestChunk = new Map<string, number>();
  for (const hit of hits) if (!bestChunk.has(hit.row.entryId)) bestChunk.set(hit.row.entryId, hit.row.chunk);
  const byMeaning = [...bestChunk.keys()].slice(0, CANDIDATES);
  const byWords = await wordRanking(deps, scope, q);

  const fused = new Map<string, number>();
  for (const ranking of [byMeaning, byWords])
    ranking.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  const meaningRank = new Map(byMeaning.map((id, i) => [id, i]));
  const ranked = [...fused]
    .sort(
      (a, b) =>
        b[1] - a[1] ||
        (meaningRank.get(a[0]) ?? Infinity) - (meaningRank.get(b[0]) ?? Infinity) ||
        a[0].localeCompare(b[0]),
    )
    .slice(0, q.limit);

  const found = await scope.view.entries(ranked.map(([id]) => id));
  const roots = ranked.flatMap(([id]) => {
    const s: EntrySnapshot | undefined = found.get(id);
    return s ? [s] : [];
  });
  const { entries, included } = await resolveEntries(scope.view, roots, {
    locale,
    chain: scope.params.chain,
    include: scope.params.include,
    fields: scope.params.fields,
    assetUrl: assetUrlFor(deps, spaceId),
    slicer,
  });
  const words = searchWords(q.q);
  const chains = new Map([[locale, scope.params.chain]]);
  const items = entries.map((entry) => {
    const snapshot = found.get(entry.id);
    const text = snapshot ? (semanticTexts(snapshot, types, chains).get(locale) ?? '') : '';
    const chunks = chunkText(text);
    const passage = chunks[bestChunk.get(entry.id) ?? 0] ?? chunks[0] ?? '';
    return {
      entry,
      score: Math.round((fused.get(entry.id) ?? 0) * 1e6) / 1e6,
      highlight: highlight(passage, words),
    };
  });
  return { body: { items, included, cv }, complete };
}
