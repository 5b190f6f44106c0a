import { type RawBuilder, sql } from 'kysely';
import type { Store } from '../store/open-store.js';

/** A job a worker holds a lease on. */
export interface ClaimedJob {
  id: string;
  spaceId: string;
  kind: string;
  payload: unknown;
  /** Attempts so far, this one included. */
  attempts: number;
  createdAt: string;
  /** The submission the job is about (outbox.submission_id), or null. */
  submissionId: string | null;
}

/**
 * PostgreSQL lets concurrent workers pass over rows another one is claiming (`FOR UPDATE SKIP LOCKED`); on
 * SQLite a write statement already runs alone, so the clause is left out.
 */
function skipLocked(store: Store): RawBuilder<unknown> {
  return store.dialect.rowLocks ? sql`for update skip locked` : sql``;
}

/**
 * Claims up to `limit` due jobs of the given kinds in one statement (a short transaction of its own):
 * pending, due, and not leased (or with an expired lease: the worker holding it died, so the job runs
 * again — at-least-once). The claim counts as an attempt. The ids are picked in a materialized CTE: as a plain
 * `in (… limit n for update skip locked)` subquery PostgreSQL may run the subquery again per row and claim far
 * more than `limit` (30 of 30 with a limit of 4), which would break the runner's concurrency bound.
 */
export async function claimJobs(
  store: Store,
  opts: { kinds: readonly string[]; workerId: string; limit: number; now: Date; leaseMs: number },
): Promise<ClaimedJob[]> {
  if (opts.kinds.length === 0) return [];
  const now = opts.now.toISOString();
  const until = new Date(opts.now.getTime() + opts.leaseMs).toISOString();
  const kinds = sql.join(opts.kinds.map((k) => sql`${k}`));
  const due = sql`status = 'pending' and kind in (${kinds}) and run_at <= ${now}
    and (locked_until is null or locked_until <= ${now})`;
  // A cheap read first: an idle poll writes nothing.
  const any = await sql<{ id: string }>`select id from outbox where ${due} limit 1`.execute(store.db);
  if (any.rows.length === 0) return [];
  const result = await sql<{
    id: string;
    space_id: string;
    kind: string;
    payload: unknown;
    attempts: number;
    created_at: string;
    submission_id: string | null;
  }>`with picked as materialized (
      select id from outbox where ${due} order by run_at, id limit ${opts.limit} ${skipLocked(store)})
    update outbox set locked_until = ${until}, locked_by = ${opts.workerId}, attempts = attempts + 1,
      updated_at = ${now}
    where id in (select id from picked) and ${due}
    returning id, space_id, kind, payload, attempts, created_at, submission_id`.execute(store.db);
  return result.rows
    .map((r) => ({
      id: r.id,
      spaceId: r.space_id,
      kind: r.kind,
      payload: store.dialect.parseJson<unknown>(r.payload),
      attempts: Number(r.attempts),
      createdAt: r.created_at,
      submissionId: r.submission_id,
    }))
    .sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    );
}

/** Ids per completion statement: well under SQLite's and PostgreSQL's bound on parameters. */
const COMPLETE_CHUNK = 500;

/**
 * Marks several jobs done in one statement per 500 (the runner gathers the jobs finishing within a few ms), each
 * only if this worker still holds its lease: a job whose lease expired and that another worker claimed again stays
 * that worker's.
 */
export async function completeJobs(
  store: Store,
  ids: readonly string[],
  workerId: string,
  now: Date,
): Promise<void> {
  for (let i = 0; i < ids.length; i += COMPLETE_CHUNK) {
    await store.db
      .updateTable('outbox')
      .set({
        status: 'done',
        locked_until: null,
        locked_by: null,
        last_error: null,
        updated_at: now.toISOString(),
      })
      .where('id', 'in', ids.slice(i, i + COMPLETE_CHUNK))
      .where('locked_by', '=', workerId)
      .execute();
  }
}

/** Schedules a failed job again at `retryAt`, or gives it up (`dead`) when `retryAt` is null. */
export async function failJob(
  store: Store,
  id: string,
  workerId: string,
  error: string,
  retryAt: Date | null,
  now: Date,
): Promise<void> {
  await store.db
    .updateTable('outbox')
    .set({
      status: retryAt === null ? 'dead' : 'pending',
      ...(retryAt === null ? {} : { run_at: retryAt.toISOString() }),
      locked_until: null,
      locked_by: null,
      last_error: error.slice(0, 2000),
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Forgets finished jobs last touched before `before` (dead ones stay for inspection). */
export async function deleteDoneJobs(store: Store, before: Date): Promise<number> {
  const r = await store.db
    .deleteFrom('outbox')
    .where('status', '=', 'done')
    .where('updated_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Jobs of one kind and status, and when the oldest of them was enqueued (`/metrics`). */
export interface OutboxCount {
  kind: string;
  status: 'pending' | 'dead';
  count: number;
  /** ISO time the oldest of them was enqueued. */
  oldestAt: string;
}

/** What waits (`pending`, running ones included) and what was given up (`dead`), by kind: a grouped scan. */
export async function outboxCounts(store: Store): Promise<OutboxCount[]> {
  const rows = await store.db
    .selectFrom('outbox')
    .select((eb) => ['kind', 'status', eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'dead'])
    .groupBy(['kind', 'status'])
    .orderBy('kind')
    .orderBy('status')
    .execute();
  return rows.flatMap((r) =>
    r.status === 'done'
      ? []
      : [{ kind: r.kind, status: r.status, count: Number(r.n), oldestAt: String(r.oldest) }],
  );
}
