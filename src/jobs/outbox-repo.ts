import { newId } from '../lib/ids.js';
import type { Queryable } from '../store/spaces-repo.js';

export interface NewJob {
  spaceId: string;
  kind: string;
  payload: unknown;
  /** When the job may run first; default now. */
  runAt?: Date;
  /** A stable id (for idempotent enqueueing); default a new `evt_` id. */
  id?: string;
  /** With a stable id: a job with this id already enqueued is kept, not an error (at-least-once fan-out). */
  ignoreDuplicate?: boolean;
  /**
   * The submission the job is about (its event, webhook deliveries, notifications): the job is deleted with the
   * submission (retention, erase, the inbox's delete). Such jobs carry ids, never the visitor's answers.
   */
  submissionId?: string;
}

/** Writes a job in the caller's transaction: it exists exactly when the change that caused it commits. */
export async function enqueueJob(db: Queryable, job: NewJob): Promise<string> {
  const [id] = await enqueueJobs(db, [job]);
  return id ?? '';
}

/**
 * Writes several jobs in one statement (a submission's notifications: one row each, one round trip). Jobs with
 * `ignoreDuplicate` and without are written by separate statements, since the conflict clause is per statement.
 */
export async function enqueueJobs(db: Queryable, jobs: readonly NewJob[]): Promise<string[]> {
  const now = new Date().toISOString();
  const rows = jobs.map((job) => ({
    id: job.id ?? newId('evt'),
    space_id: job.spaceId,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    status: 'pending' as const,
    attempts: 0,
    run_at: job.runAt?.toISOString() ?? now,
    locked_until: null,
    locked_by: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    submission_id: job.submissionId ?? null,
  }));
  for (const ignoreDuplicate of [false, true]) {
    const group = rows.filter((_, i) => Boolean(jobs[i]?.ignoreDuplicate) === ignoreDuplicate);
    if (group.length === 0) continue;
    await db
      .insertInto('outbox')
      .values(group)
      .$call((q) => (ignoreDuplicate ? q.onConflict((oc) => oc.column('id').doNothing()) : q))
      .execute();
  }
  return rows.map((r) => r.id);
}

/** Whether a job of `kind` for the space waits to run (so a caller need not queue another). */
export async function hasPendingJob(db: Queryable, spaceId: string, kind: string): Promise<boolean> {
  const row = await db
    .selectFrom('outbox')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/** The webhook-visible events of spec 6 (and the ones Folio adds). */
export type EventType = 'form.submitted' | 'menu.updated' | 'redirect.updated' | (string & {});

export interface EventPayload {
  /** Stable event id: the `webhook-id` of every delivery of this event, so receivers can deduplicate. */
  id: string;
  type: EventType;
  spaceId: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * Enqueues a domain event; the job runner fans it out to the space's webhook endpoints. An event about a
 * submission names it (`submissionId`), so it and its deliveries go when the submission goes.
 */
export async function enqueueEvent(
  db: Queryable,
  spaceId: string,
  type: EventType,
  data: Record<string, unknown>,
  opts: { submissionId?: string } = {},
): Promise<EventPayload> {
  const event: EventPayload = { id: newId('evt'), type, spaceId, createdAt: new Date().toISOString(), data };
  await enqueueJob(db, { spaceId, kind: 'event', payload: event, id: event.id, ...opts });
  return event;
}
