// What other answers show of one entry version, per locale, as comparable text: a change of an entry reaches a page
// linking it, the sitemap or the tree exactly when its facet there differs between the two ends of a span. Each
// mirrors the renderer it stands for (named beside it); the oracle test (test/sync-affected.test.ts) holds them to
// the bytes those renderers answer.

import { hasPaths, type EntrySnapshot, type TypeMap } from '../content/model.js';
import { indexValues, NOINDEX_KEY, UNLISTED_KINDS } from '../delivery/list/index-values.js';

/**
 * `included.links[id]` in `locale` (resolve.ts): `{ id, type, name, path }` while the entry is visible with a path
 * in the locale; absent otherwise.
 */
export function linkFacet(s: EntrySnapshot | undefined, locale: string): string | null {
  const path = s?.paths?.[locale];
  return s === undefined || path === undefined ? null : JSON.stringify([s.type, s.name, path]);
}

/**
 * The entry's item in `/sitemap?locale=` (sitemap-repo.ts): published pages (not folders) with a path in the
 * locale and no noindex there, with their paths in every locale of the space.
 */
export function sitemapFacet(
  s: EntrySnapshot | undefined,
  types: TypeMap,
  locale: string,
  chains: ReadonlyMap<string, string[]>,
): string | null {
  if (s === undefined) return null;
  const type = types.get(s.type);
  const path = s.paths?.[locale];
  if (!hasPaths(type) || type?.kind === 'folder' || path === undefined) return null;
  if (indexValues(s, type, chains).some((v) => v.key === NOINDEX_KEY && v.loc === locale)) return null;
  const alternates: Record<string, string> = {};
  for (const loc of chains.keys()) {
    const p = s.paths?.[loc];
    if (p !== undefined) alternates[loc] = p;
  }
  return JSON.stringify([s.id, s.type, path, s.publishedAt, alternates]);
}

/**
 * The entry's node in `/tree?locale=` (tree-service.ts), without its depth or children: pages, folders and
 * page-collection items with a path in the locale, ordered among their siblings by position.
 */
export function treeFacet(s: EntrySnapshot | undefined, types: TypeMap, locale: string): string | null {
  if (s === undefined) return null;
  const type = types.get(s.type);
  const path = s.paths?.[locale];
  if (!hasPaths(type) || UNLISTED_KINDS.has(type?.kind ?? '') || path === undefined) return null;
  return JSON.stringify([s.id, s.type, s.name, path, s.position, s.parentId, type?.kind === 'folder']);
}
