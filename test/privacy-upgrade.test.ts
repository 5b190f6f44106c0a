import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBMISSION_ADDRESSES_REINDEX } from '../src/forms/submission/addresses-repo.js';
import { eraseAddress } from '../src/forms/erase/erase.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { reindexIfDue } from '../src/store/reindex.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { undoMigrationsFrom } from './helpers/undo-migrations.js';

// What a store written by earlier code holds is brought in line when it is upgraded. Migration 0019 gives
// the outbox rows of a submission its id and takes the visitor's answers out of their payloads; the reindex step
// `submission-addresses` writes the addresses of stored submissions and normalizes their uniqueField keys.

const NOW = '2026-06-01T00:00:00.000Z';

/** Undoes migration 0019 (and what came after it), as a store of the code before it looks. */
const asBefore0019 = (store: Store): Promise<void> => undoMigrationsFrom(store, '0019');

describe.each(ENGINES)('upgrading a store on %s', (engine) => {
  let env: TestEnv;
  const reopened: Store[] = [];
  afterEach(async () => {
    for (const s of reopened.splice(0)) await s.close();
    await env.close();
  });

  it('migration 0019: outbox rows of a submission name it and lose the answers they carried', async () => {
    env = await openTestEnv(engine);
    await asBefore0019(env.store);
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

  it('the submission-addresses step: addresses of stored submissions as erase found them, uniqueField keys normalized', async () => {
    env = await openTestEnv(engine);
    const db = env.store.db;
    await db
      .insertInto('spaces')
      .values({
        id: 'spc_old',
        name: 'Old',
        settings: '{"locales":[{"code":"en","default":true}]}',
        cv: 0,
        min_cv: 0,
        created_at: NOW,
      })
      .execute();
    // The form as authored: its email field is `mail`; the form `gone` has no definition left.
    const news = {
      key: 'news',
      name: 'News',
      fields: [
        { key: 'mail', type: 'email' },
        { key: 'note', type: 'text' },
      ],
    };
    await db
      .insertInto('docs')
      .values({
        space_id: 'spc_old',
        kind: 'forms',
        key: 'news',
        position: 0,
        doc: JSON.stringify(news),
        updated_at: NOW,
      })
      .execute();
    const stored = (id: string, form: string, values: unknown, uniqueKey: string | null, at: string) => ({
      id,
      space_id: 'spc_old',
      form_key: form,
      folder: 'inbox' as const,
      values: JSON.stringify(values),
      page: null,
      locale: 'en',
      user_agent: null,
      consent: '{}',
      unique_key: uniqueKey,
      created_at: at,
      delete_after: '2027-06-01T00:00:00.000Z',
    });
    await db
      .insertInto('submissions')
      .values([
        stored('sub_1', 'news', { mail: 'Ada@Example.com' }, 'ada@example.com', '2026-01-01T00:00:00.000Z'),
        // The duplicate the old comparison let in: it keeps its key, so the unique index holds.
        stored(
          'sub_2',
          'news',
          { mail: 'ada@example.com\u200b' },
          'ada@example.com\u200b',
          '2026-01-02T00:00:00.000Z',
        ),
        stored('sub_3', 'gone', { x: 'ＡＤＡ@example.com', y: 'hello' }, null, '2026-01-03T00:00:00.000Z'),
        stored(
          'sub_4',
          'news',
          { mail: 'bob@example.com', note: 'ada@example.com' },
          null,
          '2026-01-04T00:00:00.000Z',
        ),
        stored(
          'sub_5',
          'news',
          { mail: 'ｃａｒｌ@example.com' },
          'ｃａｒｌ@example.com',
          '2026-01-05T00:00:00.000Z',
        ),
      ])
      .execute();
    const state = async () => ({
      addresses: (
        await db
          .selectFrom('submission_addresses')
          .select(['submission_id', 'address'])
          .orderBy('submission_id')
          .orderBy('address')
          .execute()
      ).map((r) => `${r.submission_id} ${r.address}`),
      keys: (await db.selectFrom('submissions').select(['id', 'unique_key']).orderBy('id').execute()).map(
        (r) => `${r.id} ${r.unique_key}`,
      ),
    });
    expect(await reindexIfDue(db, env.store.dialect, [SUBMISSION_ADDRESSES_REINDEX])).toEqual([
      'submission-addresses',
    ]);
    const expected = {
      addresses: [
        'sub_1 ada@example.com',
        'sub_2 ada@example.com',
        'sub_3 ada@example.com',
        'sub_4 bob@example.com',
        'sub_5 carl@example.com',
      ],
      keys: [
        'sub_1 ada@example.com',
        'sub_2 ada@example.com\u200b',
        'sub_3 null',
        'sub_4 null',
        'sub_5 carl@example.com',
      ],
    };
    expect(await state()).toEqual(expected);
    // Recorded: not run again; and running it again would change nothing.
    expect(await reindexIfDue(db, env.store.dialect, [SUBMISSION_ADDRESSES_REINDEX])).toEqual([]);
    await db.transaction().execute((tx) => SUBMISSION_ADDRESSES_REINDEX.run(tx, env.store.dialect));
    expect(await state()).toEqual(expected);
    const found = await eraseAddress(
      { store: env.store, blobs: env.blobs, mailDir: env.config.mail.outboxDir },
      { spaceId: 'spc_old', email: 'ADA@example.com', dryRun: true, actor: 'test' },
    );
    expect(found).toMatchObject({
      submissions: 3,
      forms: [
        { form: 'gone', inbox: 1 },
        { form: 'news', inbox: 2 },
      ],
    });
  });
});
