import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { randomBase62 } from '../src/lib/ids.js';
import type { JobRunner } from '../src/jobs/runner.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { purgeDeletedSubmissions } from '../src/forms/retention/retention-repo.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, VISITOR_IP, openFormsApp, putForms } from './helpers/forms.js';
import { drainJobs } from './helpers/jobs.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// After an erase and after retention, a unique marker the visitor left in a name, an email
// address, a message, the page, a note, an uploaded file and its name, the notification email and the confirmation
// is nowhere: not in the database file, its WAL and SHM (SQLite: grepped as raw bytes, as `grep -a` would), not in
// any row of any table (both engines: every table dumped as text), not in a blob or a mail file. PostgreSQL keeps
// deleted tuples' bytes in its table files until the space is reused (docs/operations.md "Privacy").

const DAY = 86_400_000;
const TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const mgt = { authorization: `Bearer ${TOKENS.management}` };

const MARKED: FormDefinition = {
  key: 'marked',
  name: 'Marked',
  fields: [
    { key: 'name', type: 'text', required: true },
    { key: 'email', type: 'email', required: true },
    { key: 'message', type: 'textarea' },
    { key: 'cv', type: 'file' },
  ],
  settings: {
    turnstileSiteKey: '1x00000000000000000000AA',
    turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
    retentionDays: 1,
    notify: ['owner@example.com'],
    confirmationEmail: { subject: { en: 'Thanks' }, body: { en: 'We got it.' } },
  },
};

/** Every file under `dir` whose bytes hold `marker` (ignoring ASCII case), with the number of hits. */
function filesHolding(dir: string, marker: string): Record<string, number> {
  const out: Record<string, number> = {};
  const needle = marker.toLowerCase();
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
      return;
    }
    const text = readFileSync(path).toString('latin1').toLowerCase();
    let hits = 0;
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) hits++;
    if (hits > 0) out[relative(dir, path)] = hits;
  };
  walk(dir);
  return out;
}

describe.each(ENGINES)('a marker after erase and after retention on %s', (engine) => {
  let t: FormsApp;
  let runner: JobRunner;
  let hooks: WebhookReceiver;

  /** Tables with a row whose text holds `marker`: every table of the store, whole rows as text. */
  async function tablesHolding(marker: string): Promise<string[]> {
    const tables =
      engine === 'postgres'
        ? (
            await sql<{ name: string }>`select table_name as name from information_schema.tables
              where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.store.db)
          ).rows
        : (
            await sql<{ name: string }>`select name from sqlite_master
              where type = 'table' and name not like 'sqlite_%'`.execute(t.store.db)
          ).rows;
    const found: string[] = [];
    for (const { name } of tables) {
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.store.db))
        .rows;
      const text = JSON.stringify(rows, (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v,
      );
      if (text.toLowerCase().includes(marker.toLowerCase())) found.push(name);
    }
    return found.sort();
  }

  /** Everything a visitor leaves, each holding the marker: returns the submission id. */
  async function leaveEverything(marker: string): Promise<string> {
    const form = new FormData();
    form.append('field', 'cv');
    form.append('cf-turnstile-response', TOKEN);
    form.append(
      'file',
      new Blob([`%PDF-1.4\n% ${marker}\n%%EOF\n`], { type: 'application/pdf' }),
      `${marker}.pdf`,
    );
    const request = new Request('http://x/', { method: 'POST', body: form });
    const upload = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/marked/uploads',
      payload: Buffer.from(await request.arrayBuffer()),
      remoteAddress: VISITOR_IP,
      headers: {
        'content-type': request.headers.get('content-type') ?? '',
        authorization: `Bearer ${TOKENS.public}`,
      },
    });
    expect(upload.status, upload.text).toBe(201);
    const res = await t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/marked/submissions',
      payload: {
        name: `Ada ${marker}`,
        email: `${marker}@example.com`,
        message: `Hello from ${marker}`,
        cv: upload.body.id,
        _page: `https://site.example/contact?ref=${marker}`,
        'cf-turnstile-response': TOKEN,
      },
      remoteAddress: VISITOR_IP,
      headers: { authorization: `Bearer ${TOKENS.public}` },
    });
    expect(res.status, res.text).toBe(200);
    const { id } = await t.store.db
      .selectFrom('submissions')
      .select('id')
      .where('page', 'like', `%${marker}`)
      .executeTakeFirstOrThrow();
    const note = await t.inject({
      method: 'POST',
      url: `/v1/spaces/spc_test/forms/marked/submissions/${id}/notes`,
      payload: { text: `Called ${marker} back`, author: 'Sam' },
      headers: mgt,
    });
    expect(note.status, note.text).toBe(201);
    // The owner's email, the confirmation (as .eml files: no SMTP_URL) and the webhook go out.
    await drainJobs(t.store, runner);
    // SQLite: what its automatic checkpoint does after 1,000 pages, so the pages are in the database file too (and
    // the WAL keeps its copies): deleting must overwrite them there (secure_delete), not only leave the WAL.
    if (engine === 'sqlite') await sql`pragma wal_checkpoint(PASSIVE)`.execute(t.store.db);
    return id;
  }

  /** Where the marker is before it is deleted: the test would prove nothing if it were nowhere to begin with. */
  async function expectEverywhere(marker: string): Promise<void> {
    expect(await tablesHolding(marker)).toEqual([
      'submission_addresses',
      'submission_notes',
      'submissions',
      'uploads',
    ]);
    const files = Object.keys(filesHolding(t.dataDir, marker));
    expect(files.filter((f) => f.startsWith('outbox-mail/'))).toHaveLength(2);
    expect(files.filter((f) => f.startsWith('blobs/uploads/'))).toHaveLength(1);
    if (engine === 'sqlite')
      expect(files).toEqual(expect.arrayContaining(['folio.sqlite', 'folio.sqlite-wal']));
    expect(hooks.received.some((r) => r.body.includes(marker))).toBe(true);
  }

  beforeAll(async () => {
    hooks = await WebhookReceiver.start();
    t = await openFormsApp(engine, { worker: false, webhookAllowPrivate: true });
    t.clock.current = new Date();
    expect(t.config.mail.smtpUrl).toBeNull();
    const hook = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/webhooks',
      headers: mgt,
      payload: { url: hooks.url, events: ['form.submitted'] },
    });
    expect(hook.status, hook.text).toBe(201);
    await putForms(t, 'spc_test', [MARKED]);
    runner = createJobRunner({ store: t.store, blobs: t.blobs, config: t.config });
  });
  afterAll(async () => {
    await t.close();
    await hooks.close();
  });

  it('leaves no trace of an erased visitor in the files, the tables, blobs or mail files', async () => {
    const marker = `erased${randomBase62(16)}`;
    await leaveEverything(marker);
    await expectEverywhere(marker);
    const erased = await t.inject({
      method: 'POST',
      url: '/v1/spaces/spc_test/forms/erase',
      payload: { email: `${marker}@example.com` },
      headers: mgt,
    });
    expect([erased.status, erased.body.submissions, erased.body.files]).toEqual([200, 1, 1]);
    expect(await tablesHolding(marker)).toEqual([]);
    expect(filesHolding(t.dataDir, marker)).toEqual({});
  });

  it('leaves no trace of a visitor whose retention ended', async () => {
    const marker = `expired${randomBase62(16)}`;
    await leaveEverything(marker);
    await expectEverywhere(marker);
    // The job runner's sweep, with the app's clock two days on (retentionDays: 1).
    const later = createJobRunner(
      { store: t.store, blobs: t.blobs, config: t.config },
      { clock: () => new Date(Date.now() + 2 * DAY) },
    );
    later.start();
    await later.stop();
    expect(await t.store.db.selectFrom('submissions').select('id').execute()).toEqual([]);
    expect(await tablesHolding(marker)).toEqual([]);
    expect(filesHolding(t.dataDir, marker)).toEqual({});
  });

  it('purges deleted rows cheaply where the engine can: the SQLite WAL emptied, PostgreSQL tables vacuumed', async () => {
    await t.store.db.deleteFrom('submission_notes').where('author', '=', 'nobody').execute();
    await purgeDeletedSubmissions(t.store);
    if (engine === 'sqlite') {
      expect(statSync(join(t.dataDir, 'folio.sqlite-wal')).size).toBe(0);
      return;
    }
    const { rows } = await sql<{ relname: string; vacuumed: boolean }>`select relname,
        last_vacuum is not null as vacuumed from pg_stat_user_tables where schemaname = current_schema()
        and relname in ('submissions', 'submission_notes', 'uploads', 'notification_sends', 'outbox')
        order by relname`.execute(t.store.db);
    expect(rows.map((r) => [r.relname, r.vacuumed])).toEqual([
      ['notification_sends', true],
      ['outbox', true],
      ['submission_notes', true],
      ['submissions', true],
      ['uploads', true],
    ]);
  });
});
