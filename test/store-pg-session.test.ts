import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEnv, type TestEnv } from './helpers/engines.js';

// What every pooled PostgreSQL connection of Folio runs with (src/store/open-store.ts): no parallel plans (their
// workers' start cost more than the short statements they served) and generic plans for the named statements.

describe('the settings of PostgreSQL connections', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await openTestEnv('postgres');
  });
  afterAll(async () => env?.close());

  it('every connection of the pool plans without parallel workers and generically', async () => {
    // Held at once, so the pool opens several connections.
    const settings = await Promise.all(
      Array.from({ length: 5 }, () =>
        env.store.db.transaction().execute(async (tx) => {
          const row = (
            await sql<{ workers: string; mode: string; pid: number }>`select
              current_setting('max_parallel_workers_per_gather') as workers,
              current_setting('plan_cache_mode') as mode,
              pg_backend_pid() as pid, pg_sleep(0.05)`.execute(tx)
          ).rows[0];
          return row;
        }),
      ),
    );
    expect(new Set(settings.map((s) => s?.pid)).size).toBeGreaterThan(1);
    for (const s of settings)
      expect({ workers: s?.workers, mode: s?.mode }).toEqual({ workers: '0', mode: 'force_generic_plan' });
  });
});
