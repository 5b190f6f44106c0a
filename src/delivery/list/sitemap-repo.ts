import { type RawBuilder, sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import { PATH_KEY } from './index-values.js';

export interface SitemapRow {
  id: string;
  type: string;
  path: string;
  updatedAt: string;
  alternates: Record<string, string>;
}

interface Row {
  vid: number;
  entry_id: string;
  type: string;
  published_at: string;
  path: string;
  paths: string | null;
  noindex: string | null;
}

const parseJson = <T>(text: string | null, empty: T): T => (text === null ? empty : (JSON.parse(text) as T));

/**
 * Published, indexable pages with a path in `locale`, in path order, `batch` at a time (keyset on path and
 * version id, the order of the list_values_str index), so a sitemap of any size streams in constant memory
 * (spec 2.7, 4.2). The version's row in list_entries brings its paths in every locale (`alternates`) and its
 * noindex locales (migration 0007): one lookup per entry.
 */
export async function* sitemapBatches(
  store: Store,
  spaceId: string,
  cv: number,
  locale: string,
  locales: readonly string[],
  types: readonly string[] | null,
  batch = 500,
): AsyncGenerator<SitemapRow[]> {
  const typeCond = types === null ? sql`e.kind <> 'folder'` : sql`e.type in (${sql.join(types)})`;
  const read = (after: { path: string; vid: number } | null): Promise<{ rows: Row[] }> => {
    const keyset: RawBuilder<unknown> =
      after === null
        ? sql`p.str >= ''` // implies str is not null: the partial index (and its order) applies
        : sql`p.str >= ${after.path} and (p.str > ${after.path} or p.vid > ${after.vid})`;
    return sql<Row>`select e.id as vid, e.entry_id, e.type, e.published_at, p.str as path, e.paths, e.noindex
      from list_values p join list_entries e on e.id = p.vid
      where p.space_id = ${spaceId} and p.key = ${PATH_KEY} and p.loc = ${locale}
        and p.cv_from <= ${cv} and p.cv_to > ${cv} and ${typeCond} and ${keyset}
      order by p.str, p.vid limit ${batch}`.execute(store.db);
  };
  // A read still running when the consumer stops (client gone) must not become an unhandled rejection.
  const start = (after: { path: string; vid: number } | null) => {
    const p = read(after);
    p.catch(() => undefined);
    return p;
  };
  let pending: Promise<{ rows: Row[] }> | null = start(null);
  while (pending !== null) {
    const { rows }: { rows: Row[] } = await pending;
    const last: Row | undefined = rows.at(-1);
    // The next batch is read while this one is written out (PostgreSQL works meanwhile).
    pending = last && rows.length === batch ? start({ path: last.path, vid: Number(last.vid) }) : null;
    yield rows.flatMap((r) => {
      if (parseJson<string[]>(r.noindex, []).includes(locale)) return [];
      const paths = parseJson<Record<string, string>>(r.paths, {});
      const alternates: Record<string, string> = {};
      for (const loc of locales) if (typeof paths[loc] === 'string') alternates[loc] = paths[loc];
      return [{ id: r.entry_id, type: r.type, path: r.path, updatedAt: r.published_at, alternates }];
    });
  }
}
