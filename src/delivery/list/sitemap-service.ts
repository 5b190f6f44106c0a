import { Readable } from 'node:stream';
import { hasPaths, type TypeMap } from '../../content/model.js';
import { invalidQuery } from '../../errors/errors.js';
import { TimeSlicer } from '../../lib/time-slice.js';
import type { DeliveryDeps, Scope } from '../delivery-service.js';
import { single } from '../params.js';
import { chainsOf, indexValues, NOINDEX_KEY } from './index-values.js';
import { compareScalar } from './order.js';
import { sitemapBatches, type SitemapRow } from './sitemap-repo.js';

export const SITEMAP_PARAMS = ['locale', 'cv', 'draft', 'release', 'types'] as const;

/** Page types: those whose entries have paths, folders excepted (spec 2.1: not globals, not non-page items). */
const localeCodes = (scope: Scope): string[] => scope.space.settings.locales.map((l) => l.code);

const pageTypes = (types: TypeMap): string[] =>
  [...types.values()].filter((t) => hasPaths(t) && t.kind !== 'folder').map((t) => t.key);

function parseTypes(raw: string | undefined, types: TypeMap): string[] | null {
  if (raw === undefined) return null;
  const wanted = [...new Set(raw.split(',').map((t) => t.trim()))].filter((t) => t !== '');
  const pages = pageTypes(types);
  if (wanted.length === 0) throw invalidQuery('types: name at least one page type.', 'types');
  for (const t of wanted)
    if (!pages.includes(t)) throw invalidQuery(`types: "${t}" is not a page type of this space.`, 'types');
  return wanted;
}

/** Draft and release previews: the same selection over the view's snapshots. */
async function* previewBatches(
  scope: Scope,
  types: TypeMap,
  only: string[] | null,
): AsyncGenerator<SitemapRow[]> {
  const locale = scope.params.locale;
  const chains = chainsOf(scope.space.settings);
  const rows: SitemapRow[] = [];
  for (const s of await scope.view.entriesOfTypes(only ?? pageTypes(types))) {
    const path = s.paths?.[locale];
    if (path === undefined) continue;
    const noindex = indexValues(s, types.get(s.type), chains).some(
      (v) => v.key === NOINDEX_KEY && v.loc === locale,
    );
    if (!noindex)
      rows.push({ id: s.id, type: s.type, path, updatedAt: s.publishedAt, alternates: s.paths ?? {} });
  }
  rows.sort((a, b) => compareScalar(a.path, b.path) || compareScalar(a.id, b.id));
  yield rows;
}

/**
 * GET /sitemap (spec 2.7, 4.2): `{ locale, items, cv }` written as a stream, batch by batch, so memory stays
 * flat however many entries the space has; there is no page cap.
 */
export async function sitemapStream(deps: DeliveryDeps, scope: Scope, query: Record<string, unknown>) {
  const types = await scope.view.types();
  const only = parseTypes(single(query, 'types'), types);
  const locale = scope.params.locale;
  const batches =
    scope.view.mode === 'published'
      ? sitemapBatches(deps.store, scope.space.id, scope.view.cv, locale, localeCodes(scope), only)
      : previewBatches(scope, types, only);
  // The first batch is read before the response starts, so a store failure is still an error envelope.
  const first = await batches.next();
  async function* body(): AsyncGenerator<string> {
    // The stream buffers several batches before it waits for the socket, and SQLite reads resolve without a turn
    // of the event loop: without the slicer a large sitemap was read and encoded in one stretch.
    const slicer = new TimeSlicer();
    yield `{"locale":${JSON.stringify(locale)},"items":[`;
    let sep = '';
    let next = first;
    while (next.done !== true) {
      const parts = next.value.map((item) => JSON.stringify(item));
      if (parts.length > 0) {
        yield sep + parts.join(',');
        sep = ',';
      }
      await slicer.tick();
      next = await batches.next();
    }
    yield `],"cv":${scope.view.cv}}`;
  }
  return Readable.from(body());
}
