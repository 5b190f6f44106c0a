import { sql } from 'kysely';
import { TimeSlicer } from '../../lib/time-slice.js';
import type { Store } from '../../store/open-store.js';
import { PATH_KEY } from './index-values.js';

/** A published entry with a path in the requested locale: a page, a folder or a page-collection item. */
export interface TreeRow {
  entryId: string;
  type: string;
  kind: string;
  name: string;
  position: number;
  parentId: string | null;
  path: string;
}

/** Rows one SQLite statement reads: its reads block the event loop, and a level of 10,000 nodes took over 100 ms. */
const PAGE_ROWS = 1000;

/**
 * The children of `parents` (null: the top level), ordered by parent, position and id, on the
 * (space_id, parent_id, position) index, at most `max` of them. Only entries with a path in the locale are tree
 * nodes (spec 2.1: no globals, no items of non-page collections). Read `PAGE_ROWS` at a time with the slicer
 * ticking between pages, so a level of a large space never holds the event loop in one stretch.
 *
 * Pages follow on by key, never by OFFSET: an offset makes SQLite read and join every row it skips, so the tenth
 * page of a level cost ten pages' work (14–42 ms a statement at 20,000 posts). A page that ends inside a parent's
 * children goes on from its last (position, id) in that parent, an index range; the parents whose children a page
 * finished leave the IN list.
 */
export async function treeChildren(
  store: Store,
  spaceId: string,
  cv: number,
  locale: string,
  parents: readonly string[] | null,
  max = Number.MAX_SAFE_INTEGER,
  slicer = new TimeSlicer(),
): Promise<TreeRow[]> {
  if (parents !== null && parents.length === 0) return [];
  // Where reads are real I/O (PostgreSQL streams rows) the loop turns while a statement runs, and paging would sort
  // the level once per page: a tree past its cap on 20,000 entries took 4.5 s instead of 1 s.
  const pageRows = store.dialect.streamsRows ? Number.MAX_SAFE_INTEGER : PAGE_ROWS;
  const out: TreeRow[] = [];
  // The top level is the one "parent" null.
  const chunks: (string | null)[][] = parents === null ? [[null]] : chunk(parents, 500);
  for (const ids of chunks) {
    let open = ids;
    let after: TreeRow | null = null;
    while (out.length < max && open.length > 0) {
      await slicer.tick();
      const limit = Math.min(pageRows, max - out.length);
      const rows = await readChildren(store, { spaceId, cv, locale }, open, after, limit);
      out.push(...rows);
      const last = rows.at(-1);
      if (after !== null) {
        // The rest of one parent's children: once they run out, the parents after it are read.
        if (last !== undefined && rows.length === limit) after = last;
        else {
          const finished = after.parentId;
          open = open.filter((id) => id !== finished);
          after = null;
        }
      } else {
        if (last === undefined || rows.length < limit) break;
        // Every parent of this page but the last has had all its children read.
        const done = new Set(rows.map((r) => r.parentId));
        done.delete(last.parentId);
        open = open.filter((id) => !done.has(id));
        after = last;
      }
    }
    if (out.length >= max) break;
  }
  return out;
}

/**
 * One page of children: those of `parents` (null stands for the top level, alone), or, `after` a row, the rest of
 * that row's parent's children past its (position, id).
 */
async function readChildren(
  store: Store,
  at: { spaceId: string; cv: number; locale: string },
  parents: readonly (string | null)[],
  after: TreeRow | null,
  limit: number,
): Promise<TreeRow[]> {
  const parentCond =
    after !== null
      ? after.parentId === null
        ? sql`e.parent_id is null and (e.position, e.entry_id) > (${after.position}, ${after.entryId})`
        : sql`e.parent_id = ${after.parentId} and (e.position, e.entry_id) > (${after.position}, ${after.entryId})`
      : parents[0] === null
        ? sql`e.parent_id is null`
        : sql`e.parent_id in (${sql.join(parents)})`;
  const { rows } = await sql<{
    entry_id: string;
    type: string;
    kind: string;
    name: string;
    position: number;
    parent_id: string | null;
    path: string;
  }>`select e.entry_id, e.type, e.kind, e.name, e.position, e.parent_id, p.str as path
    from list_entries e join list_values p on p.vid = e.id and p.key = ${PATH_KEY} and p.loc = ${at.locale}
    where e.space_id = ${at.spaceId} and ${parentCond} and e.cv_from <= ${at.cv} and e.cv_to > ${at.cv}
    order by e.parent_id, e.position, e.entry_id limit ${limit}`.execute(store.db);
  return rows.map((r) => ({
    entryId: r.entry_id,
    type: r.type,
    kind: r.kind,
    name: r.name,
    position: Number(r.position),
    parentId: r.parent_id,
    path: r.path,
  }));
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
