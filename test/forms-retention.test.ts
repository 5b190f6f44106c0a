import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../src/blobs/blob-store.js';
import {
  type SweepCounts,
  sweepExpiredSubmissions,
  sweepRetention,
  sweepUnclaimedUploads,
} from '../src/forms/retention/sweeps.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { BLOB_KINDS, type BlobKind, openTestBlobs } from './helpers/blobs.js';
import { ENGINES, type Engine, openTestEnv, type TestEnv } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, VISITOR_IP, openFormsApp, putForms } from './helpers/forms.js';

// spec 3.2 ("retention period elapsed: submission, its notes and files deleted"; spam after 30 days), 3.3 (unused
// uploads after one day), 8 (retention limits), 3.1 (capacity counts stored non-spam submissions).

async function openBlobs(kind: BlobKind): Promise<{ blobs: BlobStore; close(): Promise<void> }> {
  return openTestBlobs(kind);
}

const cases: [Engine, BlobKind][] = ENGINES.flatMap((e) => BLOB_KINDS.map((b): [Engine, BlobKind] => [e, b]));

const SPACE = 'spc_ret';
const DAY = 24 * 60 * 60_000;
/** The sweep's `now` in the store-level tests. */
const T = new Date('2026-06-01T00:00:00.000Z');
const at = (ms: number) => new Date(T.getTime() + ms).toISOString();
const blobKey = (uploadId: string) => `uploads/${SPACE}/${uploadId}`;
const NONE: SweepCounts = { submissions: 0, uploads: 0, files: 0, mailFiles: 0 };

async function seedSpace(store: Store): Promise<void> {
  await store.db
    .insertInto('spaces')
    .values({
      id: SPACE,
      name: 'Retention',
      settings: JSON.stringify({ locales: [{ code: 'en', default: true }] }),
      cv: 0,
      min_cv: 0,
      created_at: T.toISOString(),
    })
    .execute();
}

interface Sub {
  id: string;
  form: string;
  folder: 'inbox' | 'spam';
  deleteAfter: string;
}

async function addSubmissions(store: Store, subs: readonly Sub[]): Promise<void> {
  if (subs.length === 0) return;
  await store.db
    .insertInto('submissions')
    .values(
      subs.map((s) => ({
        id: s.id,
        space_id: SPACE,
        form_key: s.form,
        folder: s.folder,
        values: JSON.stringify({ email: `${s.id}@example.com` }),
        page: null,
        locale: 'en',
        user_agent: null,
        consent: '{}',
        unique_key: null,
        created_at: at(-400 * DAY),
        delete_after: s.deleteAfter,
      })),
    )
    .execute();
}

interface Up {
  id: string;
  form: string;
  submissionId: string | null;
  expiresAt: string;
}

/** Upload rows with real files in the blob store (content: the upload's id). */
async function addUploads(store: Store, blobs: BlobStore, ups: readonly Up[]): Promise<void> {
  if (ups.length === 0) return;
  for (const u of ups) await blobs.put(blobKey(u.id), Buffer.from(`file ${u.id}`));
  await store.db
    .insertInto('uploads')
    .values(
      ups.map((u) => ({
        id: u.id,
        space_id: SPACE,
        form_key: u.form,
        field_key: 'cv',
        name: `${u.id}.txt`,
        size: `file ${u.id}`.length,
        type: 'text/plain',
        blob_key: blobKey(u.id),
        created_at: at(-2 * DAY),
        expires_at: u.expiresAt,
        submission_id: u.submissionId,
      })),
    )
    .execute();
}

async function addSend(store: Store, id: string, submissionId: string): Promise<void> {
  await store.db
    .insertInto('notification_sends')
    .values({
      id,
      space_id: SPACE,
      submission_id: submissionId,
      channel: 'email',
      state: 'sent',
      message_id: null,
      updated_at: at(-DAY),
    })
    .execute();
}

async function setCounter(store: Store, form: string, count: number): Promise<void> {
  await store.db.insertInto('form_counters').values({ space_id: SPACE, form_key: form, count }).execute();
}

async function counter(store: Store, form: string, space = SPACE): Promise<number | null> {
  const row = await store.db
    .selectFrom('form_counters')
    .select('count')
    .where('space_id', '=', space)
    .where('form_key', '=', form)
    .executeTakeFirst();
  return row ? Number(row.count) : null;
}

async function ids(store: Store, table: 'submissions' | 'uploads' | 'notification_sends'): Promise<string[]> {
  const rows = await store.db.selectFrom(table).select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

async function readBlob(blobs: BlobStore, key: string): Promise<string | null> {
  const got = await blobs.get(key);
  if (!got) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of got.stream as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Deletes through to a real store and records every key; optionally fails right after deleting `crashAfter`. */
class RecordingBlobs implements BlobStore {
  readonly deleted: string[] = [];
  constructor(
    private readonly inner: BlobStore,
    private readonly crashAfter: string | null = null,
  ) {}
  put(key: string, data: Readable | Buffer, opts?: { contentType?: string }) {
    return this.inner.put(key, data, opts);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  async delete(key: string) {
    await this.inner.delete(key);
    this.deleted.push(key);
    if (key === this.crashAfter) throw new Error(`crash after deleting ${key}`);
  }
  close() {
    return this.inner.close();
  }
}

describe.each(cases)('retention sweeps on %s with %s blobs', (engine, blobKind) => {
  let env: TestEnv;
  let blobs: BlobStore;
  let closeBlobs: () => Promise<void>;
  beforeEach(async () => {
    env = await openTestEnv(engine);
    const opened = await openBlobs(blobKind);
    blobs = opened.blobs;
    closeBlobs = opened.close;
    await seedSpace(env.store);
  });
  afterEach(async () => {
    await closeBlobs();
    await env.close();
  });
  /** The sweeps' file stores: these blobs, and a mail directory this test never writes to. */
  const stores = (b: BlobStore) => ({ blobs: b, mailDir: join(env.dataDir, 'outbox-mail') });

  it('deletes exactly the expired submissions and unused uploads with their files, once', async () => {
    const store = env.store;
    await addSubmissions(store, [
      { id: 'sub_old', form: 'cap', folder: 'inbox', deleteAfter: at(-DAY) },
      { id: 'sub_edge', form: 'cap', folder: 'inbox', deleteAfter: at(0) },
      { id: 'sub_keep', form: 'cap', folder: 'inbox', deleteAfter: at(1) },
      { id: 'sub_spam_old', form: 'cap', folder: 'spam', deleteAfter: at(-1) },
      { id: 'sub_spam_keep', form: 'cap', folder: 'spam', deleteAfter: at(29 * DAY) },
      { id: 'sub_plain_old', form: 'plain', folder: 'inbox', deleteAfter: at(-10 * DAY) },
    ]);
    // Only the form with a capacity has a counter: its three stored inbox submissions.
    await setCounter(store, 'cap', 3);
    await addUploads(store, blobs, [
      { id: 'up_old1', form: 'cap', submissionId: 'sub_old', expiresAt: at(-399 * DAY) },
      { id: 'up_old2', form: 'cap', submissionId: 'sub_old', expiresAt: at(-399 * DAY) },
      { id: 'up_keep', form: 'cap', submissionId: 'sub_keep', expiresAt: at(-399 * DAY) },
      { id: 'up_free_old', form: 'cap', submissionId: null, expiresAt: at(-1) },
      { id: 'up_free_edge', form: 'cap', submissionId: null, expiresAt: at(0) },
      { id: 'up_free_new', form: 'cap', submissionId: null, expiresAt: at(1) },
    ]);
    await addSend(store, 'ns_old', 'sub_old');
    await addSend(store, 'ns_keep', 'sub_keep');

    // Batches of two: the sweep loops until a batch finds nothing.
    const counts = await sweepRetention(store, stores(blobs), T, { batchSize: 2 });
    expect(counts).toEqual({ submissions: 4, uploads: 2, files: 4, mailFiles: 0 });
    const after = async () => ({
      submissions: await ids(store, 'submissions'),
      uploads: await ids(store, 'uploads'),
      sends: await ids(store, 'notification_sends'),
      cap: await counter(store, 'cap'),
      plain: await counter(store, 'plain'),
    });
    const expected = {
      submissions: ['sub_keep', 'sub_spam_keep'],
      uploads: ['up_free_new', 'up_keep'],
      sends: ['ns_keep'],
      // spec 3.1: the two deleted inbox submissions give their places back; the spam one never held one.
      cap: 1,
      plain: null,
    };
    expect(await after()).toEqual(expected);
    for (const id of ['up_old1', 'up_old2', 'up_free_old', 'up_free_edge'])
      expect([id, await readBlob(blobs, blobKey(id))]).toEqual([id, null]);
    for (const id of ['up_keep', 'up_free_new'])
      expect(await readBlob(blobs, blobKey(id))).toBe(`file ${id}`);

    // Idempotent: a second run finds nothing and changes nothing.
    expect(await sweepRetention(store, stores(blobs), T)).toEqual(NONE);
    expect(await after()).toEqual(expected);
  });

  it('a crash after deleting files and before deleting rows is repaired by the next run', async () => {
    const store = env.store;
    await addSubmissions(store, [{ id: 'sub_a', form: 'cap', folder: 'inbox', deleteAfter: at(-1) }]);
    await setCounter(store, 'cap', 1);
    await addUploads(store, blobs, [
      { id: 'up_a1', form: 'cap', submissionId: 'sub_a', expiresAt: at(-DAY) },
      { id: 'up_a2', form: 'cap', submissionId: 'sub_a', expiresAt: at(-DAY) },
      { id: 'up_free', form: 'cap', submissionId: null, expiresAt: at(-1) },
    ]);

    const crashing = new RecordingBlobs(blobs, blobKey('up_a1'));
    await expect(sweepExpiredSubmissions(store, stores(crashing), T)).rejects.toThrow(/crash/);
    // The transaction rolled back: rows and the counter are as they were, one file is already gone.
    expect(await ids(store, 'submissions')).toEqual(['sub_a']);
    expect(await ids(store, 'uploads')).toEqual(['up_a1', 'up_a2', 'up_free']);
    expect(await counter(store, 'cap')).toBe(1);
    expect(await readBlob(blobs, blobKey('up_a1'))).toBeNull();

    await expect(
      sweepUnclaimedUploads(store, new RecordingBlobs(blobs, blobKey('up_free')), T),
    ).rejects.toThrow(/crash/);
    expect(await ids(store, 'uploads')).toEqual(['up_a1', 'up_a2', 'up_free']);

    // The next run deletes the rows; deleting the missing files again is no error.
    expect(await sweepRetention(store, stores(blobs), T)).toEqual({
      submissions: 1,
      uploads: 1,
      files: 3,
      mailFiles: 0,
    });
    expect(await ids(store, 'submissions')).toEqual([]);
    expect(await ids(store, 'uploads')).toEqual([]);
    expect(await counter(store, 'cap')).toBe(0);
    expect(await readBlob(blobs, blobKey('up_a2'))).toBeNull();
  });

  it('two sweepers at once delete every expired row and file exactly once, without errors', async () => {
    const store = env.store;
    const expired = Array.from({ length: 150 }, (_, i) => `sub_x${String(i).padStart(3, '0')}`);
    const kept = Array.from({ length: 5 }, (_, i) => `sub_k${i}`);
    await addSubmissions(store, [
      ...expired.map((id, i): Sub => ({ id, form: 'cap', folder: 'inbox', deleteAfter: at(-1 - i) })),
      ...kept.map((id): Sub => ({ id, form: 'cap', folder: 'inbox', deleteAfter: at(DAY) })),
    ]);
    await setCounter(store, 'cap', expired.length + kept.length);
    await addUploads(store, blobs, [
      ...expired.map((id): Up => ({ id: `up_${id}`, form: 'cap', submissionId: id, expiresAt: at(-DAY) })),
      ...Array.from({ length: 60 }, (_, i): Up => ({
        id: `up_free${String(i).padStart(2, '0')}`,
        form: 'cap',
        submissionId: null,
        expiresAt: at(-1 - i),
      })),
    ]);

    // PostgreSQL: a second store is a second pool, as another `folio worker` would be (FOR UPDATE SKIP LOCKED).
    // SQLite: one store per file in a process; its transactions run one after the other.
    const other = engine === 'postgres' ? await openStore(env.storeConfig, { migrate: false }) : store;
    try {
      const a = new RecordingBlobs(blobs);
      const b = new RecordingBlobs(blobs);
      const [ra, rb] = await Promise.all([
        sweepRetention(store, stores(a), T, { batchSize: 10 }),
        sweepRetention(other, stores(b), T, { batchSize: 10 }),
      ]);
      expect({
        submissions: ra.submissions + rb.submissions,
        uploads: ra.uploads + rb.uploads,
        files: ra.files + rb.files,
      }).toEqual({ submissions: 150, uploads: 60, files: 210 });
      const deleted = [...a.deleted, ...b.deleted];
      expect(deleted).toHaveLength(210);
      expect(new Set(deleted).size).toBe(210);
    } finally {
      if (other !== store) await other.close();
    }
    expect(await ids(store, 'submissions')).toEqual(kept);
    expect(await ids(store, 'uploads')).toEqual([]);
    // Decremented once per deleted inbox submission: a double decrement would show here.
    expect(await counter(store, 'cap')).toBe(kept.length);
  });
});

describe.each(cases)('a deleted form on %s with %s blobs (spec 3.2)', (engine, blobKind) => {
  let t: FormsApp;
  let blobs: BlobStore;
  let closeBlobs: () => Promise<void>;
  const mgt = { authorization: `Bearer ${TOKENS.management}` };
  const forms = '/v1/spaces/spc_test/forms';

  beforeAll(async () => {
    const opened = await openBlobs(blobKind);
    t = await openFormsApp(engine, {}, { blobs: opened.blobs });
    blobs = opened.blobs;
    closeBlobs = opened.close;
  });
  afterAll(async () => {
    await t.close();
    await closeBlobs();
  });

  const submit = (payload: Record<string, unknown>) =>
    t.inject({
      method: 'POST',
      url: '/v1/spc_test/forms/gone/submissions',
      payload: JSON.stringify(payload),
      remoteAddress: VISITOR_IP,
      headers: { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
    });
  const list = (key: string, folder: 'inbox' | 'spam') =>
    t.inject({ method: 'GET', url: `${forms}/${key}/submissions?folder=${folder}`, headers: mgt });
  const later = (days: number) => new Date(t.clock.current.getTime() + days * DAY + 1000);
  const files = () => ({ blobs, mailDir: t.config.mail.outboxDir });

  it('keeps its submissions and files listable until their own date, then sweeps them', async () => {
    await putForms(t, 'spc_test', [emailForm('gone', { retentionDays: 10, maxSubmissions: 5 })]);
    expect((await submit({ email: 'ada@example.com' })).status).toBe(200);
    // spec 3.2: a filled spam trap (default name `website`) is kept in the spam folder for 30 days.
    expect((await submit({ email: 'bot@example.com', website: 'http://spam.example' })).status).toBe(200);
    const inbox = (await list('gone', 'inbox')).body.items as { id: string }[];
    expect(inbox).toHaveLength(1);
    const subId = inbox[0]?.id ?? '';
    // A file the submission claimed (as an accepted submission with a file field would have).
    const key = `uploads/spc_test/fup_kept`;
    await blobs.put(key, Buffer.from('kept file'));
    await t.store.db
      .insertInto('uploads')
      .values({
        id: 'fup_kept',
        space_id: 'spc_test',
        form_key: 'gone',
        field_key: 'cv',
        name: 'cv.txt',
        size: 9,
        type: 'text/plain',
        blob_key: key,
        created_at: t.clock.current.toISOString(),
        expires_at: new Date(t.clock.current.getTime() + DAY).toISOString(),
        submission_id: subId,
      })
      .execute();
    const file = () =>
      t.inject({ method: 'GET', url: `${forms}/gone/submissions/${subId}/files/fup_kept`, headers: mgt });

    expect((await t.inject({ method: 'DELETE', url: `${forms}/gone`, headers: mgt })).status).toBe(200);
    expect((await t.inject({ method: 'GET', url: `${forms}/gone`, headers: mgt })).status).toBe(404);
    // Deleting the form deleted no submission, no upload and no counter.
    expect(((await list('gone', 'inbox')).body.items as { id: string }[]).map((i) => i.id)).toEqual([subId]);
    expect((await list('gone', 'spam')).body.items).toHaveLength(1);
    expect([(await file()).status, (await file()).text]).toEqual([200, 'kept file']);
    expect(await counter(t.store, 'gone', 'spc_test')).toBe(1);
    // A key with neither a form nor submissions is still 404.
    const never = await list('never', 'inbox');
    expect([never.status, never.body.error.code]).toEqual([404, 'not_found']);

    // After retentionDays the inbox submission goes with its file; the spam one stays for its 30 days.
    expect(await sweepRetention(t.store, files(), later(10))).toEqual({
      submissions: 1,
      uploads: 0,
      files: 1,
      mailFiles: 0,
    });
    const emptied = await list('gone', 'inbox');
    expect([emptied.status, emptied.body.items]).toEqual([200, []]);
    expect((await file()).status).toBe(404);
    expect(await readBlob(blobs, key)).toBeNull();
    expect(await counter(t.store, 'gone', 'spc_test')).toBe(0);

    expect(await sweepRetention(t.store, files(), later(30))).toEqual({
      submissions: 1,
      uploads: 0,
      files: 0,
      mailFiles: 0,
    });
    const gone = await list('gone', 'spam');
    expect([gone.status, gone.body.error.code]).toEqual([404, 'not_found']);
  });
});
