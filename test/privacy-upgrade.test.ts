import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/open-store.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

// Issue 28: what a store written by earlier code holds is brought in line when it is upgraded. Migration 0018 gives
// the outbox rows of a submission its id and takes the visitor's answers out of their payloads.

const NOW = '2026-06-01T00:00:00.000Z';

/** Undoes migration 0018 (and what came after it), as a store of the code before it looks. */
async function asBefore0018(store: Store): Promise<void> {
  await store.db.schema.dropIndex('outbox_submission').execute();
  await store.db.schema.alterTable('outbox').dropColumn('submission_id').execute();
  await sql`delete from folio_migration where name >= '0018'`.execute(store.db);
}

describe.each(ENGINES)('upgrading a store on %s', (engine) => {
  let env: TestEnv;
  const reopened: Store[] = [];
  afterEach(async () => {
    for (const s of reopened.splice(0)) await s.close();
    await env.close();
  });

  it('migration 0018: outbox rows of a submission name it and lose the answers they carried', async () => {
    env = await openTestEnv(engine);
    await asBefore0018(env.store);
    const event = {
      id: 'evt_Old000000000000000001',
      type: 'form.submitted',
      spaceId: 'spc_old',
      createdAt: NOW,
      data: {
        form: 'contact',
        submissionId: 'sub_Old000000000000000001',
        values: { name: 'OLDMARKER' },
        locale: 'de',
        page: 'https://site.example/?email=OLDMARKER',
        submittedAt: NOW,
        cv: 3,
      },
    };
    const rows: [id: string, kind: string, payload: unknown][] = [
      [event.id, 'event', event],
      [`${event.id}.whk_1`, 'webhook', { event, webhookId: 'whk_1' }],
      [
        'sub_Old000000000000000001.chat',
        'notify.chat',
        { submissionId: 'sub_Old000000000000000001', url: 'x' },
      ],
      [
        'evt_Other00000000000000001',
        'event',
        { ...event, id: 'evt_Other', type: 'menu.updated', data: { cv: 4 } },
      ],
    ];
    for (const [id, kind, payload] of rows)
      await sql`insert into outbox (id, space_id, kind, payload, status, attempts, run_at, created_at, updated_at)
        values (${id}, 'spc_old', ${kind}, ${JSON.stringify(payload)}, 'done', 1, ${NOW}, ${NOW}, ${NOW})`.execute(
        env.store.db,
      );
    const store = await openStore(env.storeConfig);
    reopened.push(store);
    const after = await store.db
      .selectFrom('outbox')
      .select(['id', 'submission_id', 'payload'])
      .orderBy('id')
      .execute();
    expect(after.map((r) => [r.id, r.submission_id])).toEqual([
      ['evt_Old000000000000000001', 'sub_Old000000000000000001'],
      ['evt_Old000000000000000001.whk_1', 'sub_Old000000000000000001'],
      ['evt_Other00000000000000001', null],
      ['sub_Old000000000000000001.chat', 'sub_Old000000000000000001'],
    ]);
    const payloads = after.map((r) => store.dialect.parseJson<Record<string, unknown>>(r.payload));
    expect(JSON.stringify(payloads)).not.toContain('OLDMARKER');
    const { values: _v, locale: _l, page: _p, ...kept } = event.data;
    expect(payloads[0]).toEqual({ ...event, data: kept });
    expect(payloads[1]).toEqual({ event: { ...event, data: kept }, webhookId: 'whk_1' });
  });
});
