import { newId } from '../lib/ids.js';
import type { Store } from '../store/open-store.js';
import type { Queryable } from '../store/spaces-repo.js';

/**
 * The activity log: management actions on forms, submissions, tokens and webhook endpoints (those say
 * where answers go), with the acting token's id, the time and counts. Never submission values, never an erased
 * address, never a token value or a webhook secret.
 */
export const ACTIVITY_ACTIONS = [
  'form.created',
  'form.updated',
  'form.deleted',
  'submissions.updated',
  'submissions.deleted',
  'submissions.exported',
  'submission.file_downloaded',
  'submission.note_added',
  'submission.note_deleted',
  'forms.erased',
  'token.created',
  'token.revoked',
  'token.updated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

const isAction = (value: string): value is ActivityAction =>
  (ACTIVITY_ACTIONS as readonly string[]).includes(value);

export interface ActivityEntry {
  id: string;
  spaceId: string;
  at: string;
  /** The management token id that acted, or `cli`. */
  actor: string;
  action: ActivityAction;
  /** A form key, token id or webhook id; null for space-wide actions. */
  subject: string | null;
  /** Counts and names of what changed (e.g. `{ count: 12, status: 'done' }`); never submission data. */
  details: Record<string, string | number | boolean | null>;
}

/** Records an action, in the caller's transaction when it has one (the record commits with the change). */
export async function recordActivity(
  db: Queryable,
  entry: Omit<ActivityEntry, 'id' | 'at'> & { at?: Date },
): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      id: newId('act'),
      space_id: entry.spaceId,
      at: (entry.at ?? new Date()).toISOString(),
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject,
      details: JSON.stringify(entry.details),
    })
    .execute();
}

/** Newest first, keyset-paged by (at, id). */
export async function listActivity(
  store: Store,
  spaceId: string,
  opts: { limit: number; before: { at: string; id: string } | null; action?: string },
): Promise<{ items: ActivityEntry[]; next: { at: string; id: string } | null }> {
  const before = opts.before;
  const rows = await store.db
    .selectFrom('activity_log')
    .selectAll()
    .where('space_id', '=', spaceId)
    .$if(opts.action !== undefined, (q) => q.where('action', '=', opts.action ?? ''))
    .$if(before !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('at', '<', before?.at ?? ''),
          eb.and([eb('at', '=', before?.at ?? ''), eb('id', '<', before?.id ?? '')]),
        ]),
      ),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
    .execute();
  // Rows are written only by recordActivity; one whose action this version does not know is skipped, not cast.
  const items = rows.slice(0, opts.limit).flatMap((r): ActivityEntry[] => {
    if (!isAction(r.action)) return [];
    const details = detailsOf(store.dialect.parseJson<unknown>(r.details));
    return [
      {
        id: r.id,
        spaceId: r.space_id,
        at: r.at,
        actor: r.actor,
        action: r.action,
        subject: r.subject,
        details,
      },
    ];
  });
  const last = items[items.length - 1];
  return { items, next: rows.length > opts.limit && last ? { at: last.at, id: last.id } : null };
}

/** The activity log's own retention: entries older than `before` go (run by the job runner's sweeps). */
export async function deleteActivityBefore(store: Store, before: Date): Promise<number> {
  const r = await store.db
    .deleteFrom('activity_log')
    .where('at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

function detailsOf(value: unknown): ActivityEntry['details'] {
  const out: ActivityEntry['details'] = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value))
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  return out;
}
