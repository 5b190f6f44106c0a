// submission_addresses (migration 0020): the normalized addresses of each submission's email
// fields, written in the submission's transaction, read by erase, deleted with the submission; and the reindex step
// that writes them for submissions stored before, normalizing their uniqueField keys on the way.

import type { Transaction } from 'kysely';
import type { StoreDialect } from '../../store/dialect/dialect.js';
import type { Store } from '../../store/open-store.js';
import type { ReindexStep } from '../../store/reindex.js';
import type { Database } from '../../store/schema.js';
import type { Queryable } from '../../store/spaces-repo.js';
import { addressesIn } from './addresses.js';
import { normalizeEmail } from '../rules/index.js';

interface AddressRow {
  submission_id: string;
  space_id: string;
  address: string;
}

/** Rows per statement: three parameters each, well inside both engines' limits. */
const INSERT_CHUNK = 1000;

async function insertAddresses(db: Queryable, rows: readonly AddressRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await db
      .insertInto('submission_addresses')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['submission_id', 'address']).doNothing())
      .execute();
}

/** Writes a submission's addresses, in the caller's transaction (the submission's). */
export async function insertSubmissionAddresses(
  db: Queryable,
  spaceId: string,
  submissionId: string,
  addresses: readonly string[],
): Promise<void> {
  await insertAddresses(
    db,
    addresses.map((address) => ({ submission_id: submissionId, space_id: spaceId, address })),
  );
}

/** A submission holding an address. */
export interface AddressMatch {
  id: string;
  formKey: string;
  folder: 'inbox' | 'spam';
  createdAt: string;
}

/**
 * The space's submissions (every form, deleted ones included, inbox and spam) with `address` (normalized) in an
 * email field, in pages by id.
 */
export async function submissionsWithAddress(
  store: Store,
  spaceId: string,
  address: string,
  after: string | null,
  limit: number,
): Promise<AddressMatch[]> {
  const rows = await store.db
    .selectFrom('submission_addresses as a')
    .innerJoin('submissions as s', 's.id', 'a.submission_id')
    .select(['s.id', 's.form_key', 's.folder', 's.created_at'])
    .where('a.space_id', '=', spaceId)
    .where('a.address', '=', address)
    .$if(after !== null, (q) => q.where('a.submission_id', '>', after ?? ''))
    .orderBy('a.submission_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, formKey: r.form_key, folder: r.folder, createdAt: r.created_at }));
}

// ---- the reindex step ------------------------------------------------------------------------------------------

/**
 * The email fields every form of the space has had: in its authored definition and in every published version
 * still kept (a field renamed, retyped or removed since still names where an address was stored), deleted forms
 * included. Definitions are read defensively: anything that is not `{ key, type: 'email' }` is skipped.
 */
export async function emailFieldsByForm(
  db: Queryable,
  dialect: StoreDialect,
  spaceId: string,
): Promise<Map<string, Set<string>>> {
  const authored = await db
    .selectFrom('docs')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', 'forms')
    .execute();
  const published = await db
    .selectFrom('doc_versions')
    .select(['key', 'doc'])
    .where('space_id', '=', spaceId)
    .where('kind', '=', 'form')
    .execute();
  const out = new Map<string, Set<string>>();
  for (const row of [...authored, ...published]) {
    const doc = dialect.parseJson<unknown>(row.doc);
    const fields = typeof doc === 'object' && doc !== null ? (doc as { fields?: unknown }).fields : undefined;
    const keys = out.get(row.key) ?? new Set<string>();
    out.set(row.key, keys);
    if (!Array.isArray(fields)) continue;
    for (const f of fields as unknown[]) {
      if (typeof f !== 'object' || f === null) continue;
      const { key, type } = f as { key?: unknown; type?: unknown };
      if (type === 'email' && typeof key === 'string') keys.add(key);
    }
  }
  return out;
}

/** Submissions read per statement by the backfill. */
const PAGE = 500;

interface StoredRow {
  id: string;
  form_key: string;
  values: unknown;
  unique_key: string | null;
  created_at: string;
}

/**
 * A page of a space's submissions stored without their addresses, oldest first (the oldest keeps a normalized
 * uniqueField key when two share it).
 */
async function unindexedAfter(
  tx: Transaction<Database>,
  spaceId: string,
  after: StoredRow | null,
): Promise<StoredRow[]> {
  return tx
    .selectFrom('submissions')
    .select(['id', 'form_key', 'values', 'unique_key', 'created_at'])
    .where('space_id', '=', spaceId)
    .where('addresses_indexed', 'is', null)
    .$if(after !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('created_at', '>', after?.created_at ?? ''),
          eb.and([eb('created_at', '=', after?.created_at ?? ''), eb('id', '>', after?.id ?? '')]),
        ]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(PAGE)
    .execute();
}

/** Stored values as a record of their members; anything else (never written so) holds nothing. */
function membersOf(values: unknown): Readonly<Record<string, unknown>> {
  return typeof values === 'object' && values !== null && !Array.isArray(values)
    ? Object.fromEntries(Object.entries(values))
    : {};
}

/**
 * Writes the addresses of submissions stored without them: those stored before migration 0020, and those an older
 * binary stores while a newer one already migrated the store (a rolling upgrade), which is why it runs at every
 * start and not once. Found by their null `addresses_indexed` (migration 0030), marked when done, so a start with
 * nothing to fix reads one empty index range. Addresses are read as erase found them then: the values of every
 * email field the form has had (any value that is an address, for a form of which no definition is kept), and the
 * uniqueField copy. Normalizes their uniqueField keys as new submissions' are; a key another submission of the form
 * already holds normalized (a duplicate kept before addresses were normalized) stays as it was, so the unique
 * index holds. Running it again changes nothing. Returns how many submissions it marked.
 */
async function backfillAddresses(tx: Transaction<Database>, dialect: StoreDialect): Promise<number> {
  const spaces = await tx
    .selectFrom('submissions')
    .select('space_id')
    .where('addresses_indexed', 'is', null)
    .distinct()
    .orderBy('space_id')
    .execute();
  let marked = 0;
  for (const { space_id: spaceId } of spaces) {
    const fields = await emailFieldsByForm(tx, dialect, spaceId);
    let last: StoredRow | null = null;
    for (;;) {
      const rows = await unindexedAfter(tx, spaceId, last);
      last = rows[rows.length - 1] ?? null;
      if (last === null) break;
      const found: AddressRow[] = [];
      for (const row of rows) {
        const values = membersOf(dialect.parseJson<unknown>(row.values));
        const keys = fields.get(row.form_key);
        const addresses = addressesIn(values, keys && keys.size > 0 ? keys : Object.keys(values));
        if (row.unique_key !== null) {
          const key = normalizeEmail(row.unique_key);
          addresses.push(key);
          if (key !== row.unique_key) await normalizeUniqueKey(tx, spaceId, row.form_key, row.id, key);
        }
        for (const address of new Set(addresses))
          found.push({ submission_id: row.id, space_id: spaceId, address });
      }
      await insertAddresses(tx, found);
      await tx
        .updateTable('submissions')
        .set({ addresses_indexed: 1 })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      marked += rows.length;
    }
  }
  return marked;
}

/** Sets a submission's uniqueField key to its normalized form, unless another submission of the form has it. */
async function normalizeUniqueKey(
  tx: Transaction<Database>,
  spaceId: string,
  formKey: string,
  id: string,
  key: string,
): Promise<void> {
  const taken = await tx
    .selectFrom('submissions')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('form_key', '=', formKey)
    .where('unique_key', '=', key)
    .executeTakeFirst();
  if (!taken) await tx.updateTable('submissions').set({ unique_key: key }).where('id', '=', id).execute();
}

/** Handed to `openStore` by the composition root, beside the list domain's step (src/cli/runtime.ts). */
export const SUBMISSION_ADDRESSES_REINDEX: ReindexStep = {
  step: 'submission-addresses',
  version: 1,
  async run(tx, dialect) {
    await backfillAddresses(tx, dialect);
  },
  repair: backfillAddresses,
};
