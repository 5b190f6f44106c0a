import { expect } from 'vitest';
import type { JobRunner } from '../../src/jobs/runner.js';
import type { Store } from '../../src/store/open-store.js';
import type { InjectResult } from './forms.js';

/** Runs due jobs until none is pending (retries included), or fails after `timeoutMs`. */
export async function drainJobs(store: Store, runner: JobRunner, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await runner.runOnce();
    const pending = await store.db
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    if (pending.length === 0) return;
    if (Date.now() > until) throw new Error(`jobs still pending: ${pending.map((p) => p.id).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Submits (expecting 200) and answers the id of the newest stored submission of the form. */
export async function submittedId(
  store: Store,
  submit: (key: string, values: Record<string, unknown>) => Promise<InjectResult>,
  key: string,
  values: Record<string, unknown>,
): Promise<string> {
  const res = await submit(key, values);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const row = await store.db
    .selectFrom('submissions')
    .select('id')
    .where('form_key', '=', key)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}
