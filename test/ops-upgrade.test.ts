import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { REINDEX_STEPS } from '../src/cli/runtime.js';
import { eraseAddress } from '../src/forms/erase/erase.js';
import { buildApp } from '../src/server/app.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';

// Upgrades with old and new instances side by side: a binary older than its store refuses to start, a running one
// stops taking writes once a newer one migrated, and what an old binary stored meanwhile is repaired at the next
// start of a new one.

const NOW = '2026-06-01T00:00:00.000Z';
const FUTURE = '9999-from-a-newer-folio';

/** Records a migration this binary does not know, as a newer Folio migrating the store would. */
async function migrateByNewerFolio(store: Store): Promise<void> {
  await sql`insert into folio_migration (name, timestamp) values (${FUTURE}, ${NOW})`.execute(store.db);
}

describe.each(ENGINES)('upgrades on %s', (engine) => {
  let env: TestEnv;
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
    await env.close();
  });

  it('a binary older than its store refuses to start, saying a newer Folio migrated it', async () => {
    env = await openTestEnv(engine);
    await migrateByNewerFolio(env.store);
    const refused = await openStore(env.storeConfig).then(
      (s) => (opened.push(s), null),
      (err: unknown) => (err as Error).message,
    );
    expect(refused).toMatch(
      /^This store was migrated by a newer Folio \(migrations 9999-from-a-newer-folio;/,
    );
    expect(refused).toContain('run that version or newer');
    expect(refused).not.toContain('corrupted');
  });

  it('a running instance stops taking writes (503 unavailable) at its next poll once a newer Folio migrated', async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    const app = await buildApp(env);
    opened.push(app);
    const post = () =>
      app.inject({
        method: 'POST',
        url: '/v1/spc_test/forms/contact/submissions',
        headers: { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
        payload: {},
      });
    expect((await post()).statusCode).not.toBe(503);
    await migrateByNewerFolio(env.store);
    await app.folioEdge.fanout.poll();
    const refused = await post();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      error: { code: 'unavailable', message: expect.any(String), details: { retryAfter: 5 } },
    });
    expect(env.store.writesRefused).toMatch(/migrated by a newer Folio/);
    // Reads go on.
    const read = await app.inject({
      method: 'GET',
      url: '/v1/spc_test/entries/ent_home',
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect(read.statusCode).toBe(200);
  });

  it('a submission an older binary stored after the upgrade is found by erase once a new binary starts again', async () => {
    env = await openTestEnv(engine);
    // The new binary's start: migrations and every backfill, recorded as done.
    opened.push(await openStore(env.storeConfig, { reindex: REINDEX_STEPS }));
    const db = env.store.db;
    await db
      .insertInto('spaces')
      .values({
        id: 'spc_mixed',
        name: 'Mixed',
        settings: '{"locales":[{"code":"en","default":true}]}',
        cv: 0,
        min_cv: 0,
        created_at: NOW,
      })
      .execute();
    const form = { key: 'news', name: 'News', fields: [{ key: 'mail', type: 'email' }] };
    await db
      .insertInto('docs')
      .values({
        space_id: 'spc_mixed',
        kind: 'forms',
        key: 'news',
        position: 0,
        doc: JSON.stringify(form),
        updated_at: NOW,
      })
      .execute();
    // The old instance, still running: it stores the submission as its code did, without the addresses (nor the
    // mark it does not know of).
    await db
      .insertInto('submissions')
      .values({
        id: 'sub_old_binary',
        space_id: 'spc_mixed',
        form_key: 'news',
        folder: 'inbox',
        values: JSON.stringify({ mail: 'Old@Example.com' }),
        page: null,
        locale: 'en',
        user_agent: null,
        consent: '{}',
        unique_key: null,
        created_at: NOW,
        delete_after: '2027-06-01T00:00:00.000Z',
      })
      .execute();
    const erase = () =>
      eraseAddress(
        { store: env.store, blobs: env.blobs, mailDir: env.config.mail.outboxDir },
        { spaceId: 'spc_mixed', email: 'old@example.com', dryRun: true, actor: 'test' },
      );
    expect(await erase()).toMatchObject({ submissions: 0 });
    // The next start of a new binary (or `folio migrate`) finds and fixes it.
    const again = await openStore(env.storeConfig, { reindex: REINDEX_STEPS });
    opened.push(again);
    expect(again.opened.reindexed).toContain('submission-addresses');
    expect(await erase()).toMatchObject({ submissions: 1, forms: [{ form: 'news', inbox: 1 }] });
    // Fixed once: the start after that has nothing to repair.
    const third = await openStore(env.storeConfig, { reindex: REINDEX_STEPS });
    opened.push(third);
    expect(third.opened.reindexed).toEqual([]);
  });
});
