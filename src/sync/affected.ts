// `/sync`'s `affected` (issue 31 item 4): pages whose delivered JSON differs between the two ends of the range
// without a new version of their own, because of what they show of other documents. The dependencies are those the
// CDN tags name (cache-headers.ts `entryTags`): entries they link to or reference (their path, name, visibility),
// the assets they show, the forms they embed. Candidates come from those facts; each is then rendered at both ends
// in each locale (as `GET /entries/by-path` renders it with the request's `include`, without `fields`) and kept
// where the bytes differ, so the answer is exact, not a guess. Candidates look one reference deep: with `include`,
// an entry reached through another included entry is not a candidate on its own.

import type { Crop } from '../lib/crop.js';
import { localeChain } from '../content/locales.js';
import { type AssetDoc, type EntrySnapshot, hasPaths, type SpaceSettings } from '../content/model.js';
import { PublishedView } from '../delivery/content-view.js';
import { collectNeeds, emptyNeeds } from '../delivery/render-fields.js';
import { resolveEntries } from '../delivery/resolve.js';
import type { Store } from '../store/open-store.js';
import { type CvRange, type LogSource, movedEntryIds, touchedKeys, versionsAt } from './sync-repo.js';

export interface AffectedItem {
  kind: 'affected';
  id: string;
  type: string;
  locale: string;
  path: string;
}

/** At most this many changed assets and forms are looked for in pages (a bound on one request's work). */
const MAX_TOUCHED = 100_000;

const ENTRIES: LogSource = { table: 'entry_versions', key: 'entry_id' };
const docs = (docKind: string): LogSource => ({ table: 'doc_versions', key: 'key', docKind });

export interface AffectedRequest {
  store: Store;
  spaceId: string;
  settings: SpaceSettings;
  range: CvRange;
  /** The locales asked for (one with `locale`, else every locale of the space). */
  locales: readonly string[];
  /** Reference fields rendered into `included.entries` (the request's `include`): pages showing those too. */
  include: ReadonlySet<string>;
  assetUrl: (asset: AssetDoc, crop?: Crop | null) => string;
}

/** The pages affected by what changed in the range, by entry id and locale (sorted). */
export async function affectedPages(req: AffectedRequest): Promise<AffectedItem[]> {
  const { store, spaceId, range } = req;
  if (range.from === 0) return []; // From nothing every page is `changed`.
  const [entries, assets, forms] = await Promise.all([
    movedEntryIds(store, spaceId, range),
    touchedKeys(store, spaceId, docs('asset'), range, null, MAX_TOUCHED),
    touchedKeys(store, spaceId, docs('form'), range, null, MAX_TOUCHED),
  ]);
  if (entries.size === 0 && assets.length === 0 && forms.length === 0) return [];
  const assetSet = new Set(assets);
  const formSet = new Set(forms);

  const before = new PublishedView(store, spaceId, range.from);
  const after = new PublishedView(store, spaceId, range.to);
  const types = await after.types();
  const pageTypes = [...types.values()].filter((t) => hasPaths(t) && t.kind !== 'folder').map((t) => t.key);
  const pages = await after.entriesOfTypes(pageTypes);

  // Candidates: pages whose fields point at something that changed.
  const candidates = pages.filter((page) => {
    const type = types.get(page.type);
    if (type === undefined || page.paths === null) return false;
    const needs = emptyNeeds();
    collectNeeds(page.fields, type, types, needs);
    const refs = [...needs.refs.values()].flatMap((set) => [...set]);
    return (
      [...needs.links, ...refs].some((id) => entries.has(id)) ||
      [...needs.assets].some((id) => assetSet.has(id)) ||
      [...needs.forms].some((key) => formSet.has(key))
    );
  });
  if (candidates.length === 0) return [];

  // A page with a new version of its own is `changed` (or, republished unchanged, compared below like any other).
  const ids = candidates.map((c) => c.id);
  const [was, now] = await Promise.all([
    versionsAt(store, spaceId, ENTRIES, ids, range.from),
    versionsAt(store, spaceId, ENTRIES, ids, range.to),
  ]);
  const olds = await before.entries(ids);
  const out: AffectedItem[] = [];
  for (const page of candidates) {
    const old = olds.get(page.id);
    const w = was.get(page.id);
    const n = now.get(page.id);
    if (old === undefined || w === undefined || n === undefined || w.content !== n.content) continue;
    for (const locale of req.locales) {
      const path = page.paths?.[locale];
      if (path === undefined) continue;
      const chain = localeChain(req.settings, locale);
      const [a, b] = await Promise.all([
        render(before, old, locale, chain, req),
        render(after, page, locale, chain, req),
      ]);
      if (a !== b) out.push({ kind: 'affected', id: page.id, type: page.type, locale, path });
    }
  }
  return out.sort((x, y) => (x.id === y.id ? cmp(x.locale, y.locale) : cmp(x.id, y.id)));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The page as by-path delivers it (entry and included, with the request's `include`), as JSON text. */
async function render(
  view: PublishedView,
  snapshot: EntrySnapshot,
  locale: string,
  chain: readonly string[],
  req: AffectedRequest,
): Promise<string> {
  const result = await resolveEntries(view, [snapshot], {
    locale,
    chain,
    include: req.include,
    fields: undefined,
    assetUrl: req.assetUrl,
  });
  return JSON.stringify({ entry: result.entries[0] ?? null, included: result.included });
}
