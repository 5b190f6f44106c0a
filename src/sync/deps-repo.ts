// The dependency index's one writer and its reads (entry_deps, migration 0028). Written in the publishing
// transaction through publish hooks (deps-hooks.ts), versioned like the log: a version's rows live from its
// `cv_from` until it is closed.

import { sql, type Transaction } from 'kysely';
import type { ContentTypeDef, EntrySnapshot, TypeMap } from '../content/model.js';
import { bulkInsert } from '../store/dialect/bulk-insert.js';
import type { StoreDialect } from '../store/dialect/dialect.js';
import type { Store } from '../store/open-store.js';
import type { Database } from '../store/schema.js';
import { type Dep, type DepKind, depsOf } from './deps.js';

const COLUMNS = ['space_id', 'entry_id', 'cv_from', 'cv_to', 'kind', 'target', 'field'];

// The types a version is indexed with: those published at its cv, read once per transaction and cv.
const typesPerTx = new WeakMap<object, Map<string, Promise<TypeMap>>>();

function typesAt(tx: Transaction<Database>, dialect: StoreDialect, spaceId: string, cv: number) {
  let perTx = typesPerTx.get(tx);
  if (!perTx) typesPerTx.set(tx, (perTx = new Map()));
  const key = `${spaceId}\n${cv}`;
  let found = perTx.get(key);
  if (!found) {
    found = tx
      .selectFrom('doc_versions')
      .select('doc')
      .where('space_id', '=', spaceId)
      .where('kind', '=', 'types')
      .where('key', '=', '*')
      .where('cv_from', '<=', cv)
      .where((eb) => eb.or([eb('cv_to', 'is', null), eb('cv_to', '>', cv)]))
      .executeTakeFirst()
      .then((row) => {
        const list = row ? dialect.parseJson<ContentTypeDef[]>(row.doc) : [];
        return new Map(list.map((t) => [t.key, t]));
      });
    perTx.set(key, found);
  }
  return found;
}

function rowsOf(spaceId: string, cv: number, snapshot: EntrySnapshot, deps: readonly Dep[]): unknown[][] {
  const rows: unknown[][] = [[spaceId, snapshot.id, cv, null, 'version', '', '']];
  for (const d of deps) rows.push([spaceId, snapshot.id, cv, null, d.kind, d.target, d.field]);
  return rows;
}

/** The rows of versions opened at `cv` (their previous versions closed already). */
export async function putDeps(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  snapshots: readonly EntrySnapshot[],
): Promise<void> {
  if (snapshots.length === 0) return;
  const types = await typesAt(tx, dialect, spaceId, cv);
  const rows = snapshots.flatMap((s) => rowsOf(spaceId, cv, s, depsOf(s, types)));
  await bulkInsert(tx, 'entry_deps', COLUMNS, rows);
}

/** Closes an entry's open rows at `cv`; rows opened at this same cv are removed (as the log does). */
export async function closeDeps(
  tx: Transaction<Database>,
  spaceId: string,
  entryId: string,
  cv: number,
): Promise<void> {
  await sql`delete from entry_deps where space_id = ${spaceId} and entry_id = ${entryId} and cv_from = ${cv}`.execute(
    tx,
  );
  await sql`update entry_deps set cv_to = ${cv}
    where space_id = ${spaceId} and entry_id = ${entryId} and cv_to is null`.execute(tx);
}

/** Forgets rows of versions closed at or before `minCv`, with the log. */
export async function pruneDeps(tx: Transaction<Database>, spaceId: string, minCv: number): Promise<void> {
  await tx.deleteFrom('entry_deps').where('space_id', '=', spaceId).where('cv_to', '<=', minCv).execute();
}

/** One edge read backwards: `source` shows `target`. */
export interface Edge {
  source: string;
  kind: DepKind;
  target: string;
  field: string;
}

const inChunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** What `edgesInto` reads: the targets, the kinds, and for `ref` only these fields when given. */
export interface EdgeQuery {
  targets: readonly string[];
  kinds: readonly DepKind[];
  fields?: readonly string[] | undefined;
}

/**
 * The edges into `targets` of the given kinds from versions visible at `cv`, at most `limit` of them (the caller's
 * bound on one computation). Read in slices of targets; `between` runs after each (the caller's time slicer).
 */
export async function edgesInto(
  store: Store,
  spaceId: string,
  { targets, kinds, fields }: EdgeQuery,
  cv: number,
  limit: number,
  between: () => Promise<void> = async () => {},
): Promise<Edge[]> {
  const out: Edge[] = [];
  if (targets.length === 0 || kinds.length === 0 || cv === 0) return out;
  for (const chunk of inChunks([...new Set(targets)].sort(), 200)) {
    const fieldCond =
      fields === undefined ? sql`` : sql` and (kind <> 'ref' or field in (${sql.join([...fields, ''])}))`;
    const { rows } = await sql<{ entry_id: string; kind: DepKind; target: string; field: string }>`
      select entry_id, kind, target, field from entry_deps
      where space_id = ${spaceId} and target in (${sql.join(chunk)}) and kind in (${sql.join([...kinds])})
        and cv_from <= ${cv} and (cv_to is null or cv_to > ${cv})${fieldCond}
      limit ${limit - out.length + 1}`.execute(store.db);
    for (const r of rows) out.push({ source: r.entry_id, kind: r.kind, target: r.target, field: r.field });
    if (out.length > limit) break;
    await between();
  }
  return out;
}

/** Versions visible at `cv` that have no rows in the index (written by a binary without it), at most `limit`. */
export async function unindexedAt(
  store: Store,
  spaceId: string,
  cv: number,
  limit: number,
): Promise<string[]> {
  const { rows } = await sql<{ entry_id: string }>`select v.entry_id from entry_versions v
    where v.space_id = ${spaceId} and v.cv_from <= ${cv} and (v.cv_to is null or v.cv_to > ${cv})
      and not exists (select 1 from entry_deps d where d.space_id = v.space_id and d.entry_id = v.entry_id
        and d.cv_from = v.cv_from and d.kind = 'version')
    limit ${limit}`.execute(store.db);
  return rows.map((r) => r.entry_id);
}

/**
 * Indexes every version in the log that has no rows yet (a store from before the index, or versions an older
 * binary wrote), each with the types of its own cv where the log still has them, else the space's current ones.
 * Idempotent: indexed versions are left alone.
 */
export async function indexMissingDeps(tx: Transaction<Database>, dialect: StoreDialect): Promise<number> {
  let done = 0;
  for (;;) {
    const { rows } = await sql<{
      space_id: string;
      cv_from: number;
      cv_to: number | null;
      doc: unknown;
      space_cv: number;
    }>`select v.space_id, v.cv_from, v.cv_to, v.doc, s.cv as space_cv
      from entry_versions v join spaces s on s.id = v.space_id
      where not exists (select 1 from entry_deps d where d.space_id = v.space_id and d.entry_id = v.entry_id
        and d.cv_from = v.cv_from and d.kind = 'version')
      order by v.space_id, v.entry_id, v.cv_from
      limit 1000`.execute(tx);
    if (rows.length === 0) return done;
    const out: unknown[][] = [];
    for (const r of rows) {
      const snapshot = dialect.parseJson<EntrySnapshot>(r.doc);
      let types = await typesAt(tx, dialect, r.space_id, Number(r.cv_from));
      if (types.size === 0) types = await typesAt(tx, dialect, r.space_id, Number(r.space_cv));
      const cvTo = r.cv_to === null ? null : Number(r.cv_to);
      for (const row of rowsOf(r.space_id, Number(r.cv_from), snapshot, depsOf(snapshot, types))) {
        row[3] = cvTo;
        out.push(row);
      }
    }
    await bulkInsert(tx, 'entry_deps', COLUMNS, out);
    done += rows.length;
  }
}
