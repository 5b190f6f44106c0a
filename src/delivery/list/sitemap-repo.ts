import { type RawBuilder, sql } from 'kysely';
import type { Store } from '../../store/open-store.js';
import { NOINDEX_KEY, PATH_KEY } from './index-values.js';

export interface SitemapRow {
  id: string;
  type: string;
  path: string;
  updatedAt: string;
  alternates: Record<string, string>;
}

type Row = Record<string, unknown> & {
  vid: number;
  entry_id: string;
  type: string;
  published_at: string;
  path: string;
};

/**
 * Published, indexable pages with a path in `locale`, in path order, `batch` at a time (keyset on path and
 * version id, the order of the list_values_str index), so a sitemap of any size streams in constant memory (spec 2.7, 4.2). Each row carries its
 * paths in every locale of `locales` (one index probe each) for `alternates`.
 */
export async function* sitemapBatches(
  store: Store,
  spaceId: string,
  cv: number,
  locale: string,
  locales: readonly string[],
  types: readonly string[] | null,
  batch = 2000,
): AsyncGenerator<SitemapRow[]> {
  const typeCond = types === null ? sql`e.kind <> 'folder'` : sql`e.type in (${sql.join(types)})`;
  const alternates = locales.map(
    (loc, i) => sql`left join list_values ${sql.raw(`a${i}`)} on ${sql.ref(`a${i}.vid`)} = e.id
      and ${sql.ref(`a${i}.key`)} = ${PATH_KEY} and ${sql.ref(`a${i}.loc`)} = ${loc}`,
  );
  const columns = locales.map((_, i) => sql`${sql.ref(`a${i}.str`)} as ${sql.raw(`a${i}`)}`);
  const read = (after: { path: string; vid: number } | null): Promise<{ rows: Row[] }> => {
    const keyset: RawBuilder<unknown> =
      after === null
        ? sql`p.str >= ''` // implies str is not null: the partial index (and its order) applies
        : sql`p.str >= ${after.path} and (p.str > ${after.path} or p.vid > ${after.vid})`;
    return sql<Row>`select e.id as vid, e.entry_id, e.type, e.published_at, p.str as path, ${sql.join(columns)}
      from list_values p join list_entries e on e.id = p.vid ${sql.join(alternates, sql` `)}
      where p.space_id = ${spaceId} and p.key = ${PATH_KEY} and p.loc = ${locale}
        and p.cv_from <= ${cv} and p.cv_to > ${cv} and ${typeCond} and ${keyset}
        and not exists (select 1 from list_values n where n.vid = e.id and n.key = ${NOINDEX_KEY}
          and n.loc = ${locale})
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
    yield rows.map((r) => {
      const alt: Record<string, string> = {};
      locales.forEach((loc, i) => {
        const p = r[`a${i}`];
        if (typeof p === 'string') alt[loc] = p;
      });
      return { id: r.entry_id, type: r.type, path: r.path, updatedAt: r.published_at, alternates: alt };
    });
  }
}
