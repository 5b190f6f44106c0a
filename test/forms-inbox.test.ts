import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Scope } from '../src/auth/scopes.js';
import { hashToken } from '../src/auth/tokens.js';
import { type BlobStore, LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { parseBulk } from '../src/forms/inbox/bodies.js';
import { parseInboxFilter } from '../src/forms/inbox/filter.js';
import { sweepRetention } from '../src/forms/retention/sweeps.js';
import { FolioError } from '../src/errors/errors.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { emailForm } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { storePerson, storeScopedToken } from './helpers/tokens.js';
import { storeSubmission } from './helpers/submissions.js';

// The forms inbox: spec 3.1 (capacity counts stored non-spam submissions), 3.2 (spam folder 30 days;
// retention deletes a submission with its notes and files), 4.5 (only `forms.read` sees submissions).

const DAY = 86_400_000;
const SPACE = 'spc_test';
const base = (form: string) => `/v1/spaces/${SPACE}/forms/${form}/submissions`;

/** Deletes through to a directory store; throws after deleting the key in `failAfter` (a crash mid-call). */
class CrashingBlobs implements BlobStore {
  failAfter: string | null = null;
  constructor(readonly inner: LocalDirBlobStore) {}
  put(key: string, data: Readable | Buffer) {
    return this.inner.put(key, data);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  async delete(key: string) {
    await this.inner.delete(key);
    if (key === this.failAfter) throw new Error(`crash after deleting ${key}`);
  }
  close() {
    return this.inner.close();
  }
}

interface Seed {
  id: string;
  createdAt: string;
  values?: Record<string, unknown>;
  folder?: 'inbox' | 'spam';
  deleteAfter?: string;
}

describe('inbox parsers take any junk without crashing (STYLE.md rule 13)', () => {
  it('parseInboxFilter answers a filter or invalid_query, nothing else', () => {
    const junk = fc.dictionary(
      fc.oneof(fc.constantFrom('folder', 'status', 'q', 'from', 'to', 'assignee', 'field[a]'), fc.string()),
      fc.oneof(fc.string(), fc.array(fc.string()), fc.integer(), fc.constant(null)),
    );
    fc.assert(
      fc.property(junk, (query) => {
        try {
          parseInboxFilter(query);
        } catch (err) {
          expect(err instanceof FolioError && err.code === 'invalid_query').toBe(true);
        }
      }),
    );
  });

  it('parseBulk answers an input or invalid_body, nothing else', () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        try {
          parseBulk(body);
        } catch (err) {
          expect(err instanceof FolioError && err.code === 'invalid_body').toBe(true);
        }
      }),
    );
  });
});

describe.each(ENGINES)('the forms inbox on %s', (engine) => {
  let t: FormsApp;
  let blobs: CrashingBlobs;
  let blobDir: string;
  /** People of the space (management tokens standing for a person): whom submissions are assigned to. */
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };
  beforeAll(async () => {
    blobDir = mkdtempSync(join(tmpdir(), 'folio-inbox-blobs-'));
    blobs = new CrashingBlobs(new LocalDirBlobStore(blobDir));
    t = await openFormsApp(engine, {}, { blobs });
    ada = await storePerson(t.store, SPACE, 'Ada Lovelace', 'ada@example.com');
    bob = await storePerson(t.store, SPACE, 'Bob');
  });
  afterAll(async () => {
    await t.close();
    rmSync(blobDir, { recursive: true, force: true });
  });

  const { submit } = formClient(() => t);

  /** A management call, a millisecond after the last one (activity entries and `updatedAt` get distinct times). */
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    token: string = TOKENS.management,
  ) => {
    t.clock.current = new Date(t.clock.current.getTime() + 1);
    return t.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  };

  async function seed(form: string, subs: readonly Seed[]): Promise<void> {
    for (const s of subs) {
      await storeSubmission(t.store.db, {
        id: s.id,
        spaceId: SPACE,
        form,
        folder: s.folder ?? 'inbox',
        values: s.values ?? {},
        createdAt: s.createdAt,
        deleteAfter: s.deleteAfter ?? new Date(Date.parse(s.createdAt) + 365 * DAY).toISOString(),
      });
    }
  }

  /** Ids the list answers for a query, in its order (newest first). */
  async function ids(form: string, query = ''): Promise<string[]> {
    const res = await call('GET', `${base(form)}?limit=200${query === '' ? '' : `&${query}`}`);
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    return res.body.items.map((i: { id: string }) => i.id);
  }
  const sorted = async (form: string, query: string) => (await ids(form, query)).sort();

  const storeToken = (scopes: readonly Scope[]): Promise<string> => storeScopedToken(t.store, SPACE, scopes);

  async function row(id: string) {
    return t.store.db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst();
  }
  async function counter(form: string): Promise<number | null> {
    const r = await t.store.db
      .selectFrom('form_counters')
      .select('count')
      .where('space_id', '=', SPACE)
      .where('form_key', '=', form)
      .executeTakeFirst();
    return r ? Number(r.count) : null;
  }
  async function noteIds(submissionId: string): Promise<string[]> {
    const rows = await t.store.db
      .selectFrom('submission_notes')
      .select('id')
      .where('submission_id', '=', submissionId)
      .execute();
    return rows.map((r) => r.id);
  }
  async function addUpload(form: string, submissionId: string, uploadId: string): Promise<string> {
    const key = `uploads/${SPACE}/${uploadId}`;
    await blobs.put(key, Buffer.from(`file ${uploadId}`));
    await t.store.db
      .insertInto('uploads')
      .values({
        id: uploadId,
        space_id: SPACE,
        form_key: form,
        field_key: 'cv',
        name: 'cv.txt',
        size: 9,
        type: 'text/plain',
        blob_key: key,
        created_at: t.clock.current.toISOString(),
        expires_at: new Date(t.clock.current.getTime() + DAY).toISOString(),
        submission_id: submissionId,
      })
      .execute();
    return key;
  }
  const blobExists = async (key: string) => (await blobs.get(key)) !== null;

  describe('listing', () => {
    it('answers items with status, assignee, notes count and no-store, newest first', async () => {
      await seed('shape', [
        {
          id: 'sub_shape1',
          createdAt: '2026-03-01T10:00:00.000Z',
          values: { name: 'Ada', topics: ['a', 'b'] },
        },
        { id: 'sub_shape2', createdAt: '2026-03-02T10:00:00.000Z' },
      ]);
      expect(
        (await call('POST', `${base('shape')}/sub_shape1/notes`, { text: 'Hi', author: 'Bo' })).status,
      ).toBe(201);
      const notedAt = t.clock.current.toISOString();
      const res = await call('GET', base('shape'));
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.nextCursor).toBeNull();
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['sub_shape2', 'sub_shape1']);
      expect(res.body.items[1]).toEqual({
        id: 'sub_shape1',
        form: 'shape',
        folder: 'inbox',
        status: 'new',
        assignee: null,
        assigneeName: null,
        read: false,
        values: { name: 'Ada', topics: ['a', 'b'] },
        page: null,
        locale: 'en',
        userAgent: null,
        consent: {},
        createdAt: '2026-03-01T10:00:00.000Z',
        // Adding a note is an inbox change of its submission.
        updatedAt: notedAt,
        deleteAfter: '2027-03-01T10:00:00.000Z',
        noteCount: 1,
        // Seeded straight into the store: no form version recorded.
        formCv: null,
      });
    });

    it('filters by status, by the person assigned, and by no assignee (assignee=)', async () => {
      await seed('triage', [
        { id: 'sub_tri1', createdAt: '2026-03-01T10:00:00.000Z' },
        { id: 'sub_tri2', createdAt: '2026-03-01T10:00:01.000Z' },
        { id: 'sub_tri3', createdAt: '2026-03-01T10:00:02.000Z' },
        { id: 'sub_tri4', createdAt: '2026-03-01T10:00:03.000Z' },
      ]);
      const patch = (id: string, body: unknown) => call('PATCH', `${base('triage')}/${id}`, body);
      expect((await patch('sub_tri1', { status: 'read', assignee: ada.id })).status).toBe(200);
      expect((await patch('sub_tri2', { status: 'done' })).status).toBe(200);
      expect((await patch('sub_tri3', { assignee: bob.id })).status).toBe(200);
      const cases: [string, string[]][] = [
        ['status=new', ['sub_tri3', 'sub_tri4']],
        ['status=read,done', ['sub_tri1', 'sub_tri2']],
        ['status=archived', []],
        [`assignee=${ada.id}`, ['sub_tri1']],
        [`assignee=${bob.id}`, ['sub_tri3']],
        ['assignee=', ['sub_tri2', 'sub_tri4']],
        ['status=new&assignee=', ['sub_tri4']],
      ];
      for (const [query, expected] of cases)
        expect([query, await sorted('triage', query)]).toEqual([query, expected]);
    });

    it('filters by created date: from inclusive, to exclusive, dates and timestamps with zones', async () => {
      await seed('dates', [
        { id: 'sub_d1', createdAt: '2026-03-01T00:00:00.000Z' },
        { id: 'sub_d2', createdAt: '2026-03-01T23:59:59.999Z' },
        { id: 'sub_d3', createdAt: '2026-03-02T00:00:00.000Z' },
        { id: 'sub_d4', createdAt: '2026-03-03T12:00:00.000Z' },
      ]);
      const cases: [string, string[]][] = [
        ['from=2026-03-02', ['sub_d3', 'sub_d4']],
        ['to=2026-03-02', ['sub_d1', 'sub_d2']],
        ['from=2026-03-01&to=2026-03-02', ['sub_d1', 'sub_d2']],
        ['from=2026-03-02T01:00:00%2B02:00', ['sub_d2', 'sub_d3', 'sub_d4']],
        ['to=2026-03-03T12:00:00.000Z', ['sub_d1', 'sub_d2', 'sub_d3']],
        ['from=2026-03-03T12:00Z', ['sub_d4']],
      ];
      for (const [query, expected] of cases)
        expect([query, await sorted('dates', query)]).toEqual([query, expected]);
    });

    it('filters by field value: equal, or held by a list value; several filters all apply', async () => {
      await seed('fields', [
        {
          id: 'sub_f1',
          createdAt: '2026-03-01T10:00:00.000Z',
          values: { topic: 'press', tags: ['a', 'b'], qty: 3, ok: true },
        },
        { id: 'sub_f2', createdAt: '2026-03-01T10:00:01.000Z', values: { topic: 'general', tags: ['b'] } },
        {
          id: 'sub_f3',
          createdAt: '2026-03-01T10:00:02.000Z',
          values: { topic: 'Press', 'first-name': 'Ada' },
        },
      ]);
      const cases: [string, string[]][] = [
        ['field[topic]=press', ['sub_f1']],
        ['field%5Btopic%5D=Press', ['sub_f3']],
        ['field[tags]=b', ['sub_f1', 'sub_f2']],
        ['field[tags]=a&field[topic]=press', ['sub_f1']],
        ['field[tags]=a&field[topic]=general', []],
        ['field[qty]=3', ['sub_f1']],
        ['field[ok]=true', ['sub_f1']],
        ['field[first-name]=Ada', ['sub_f3']],
        ['field[missing]=x', []],
        // A substring is not equality.
        ['field[topic]=pre', []],
      ];
      for (const [query, expected] of cases)
        expect([query, await sorted('fields', query)]).toEqual([query, expected]);
    });

    it('q searches stored values case-insensitively, never field keys; %, _, \\ and " are literal', async () => {
      const at = (i: number) => `2026-03-01T10:00:0${i}.000Z`;
      await seed('search', [
        { id: 'sub_q1', createdAt: at(1), values: { name: 'Ada Lovelace', msg: 'Hello' } },
        { id: 'sub_q2', createdAt: at(2), values: { name: 'Grace', msg: '100% sure' } },
        { id: 'sub_q3', createdAt: at(3), values: { name: 'Linus', msg: 'snake_case here' } },
        { id: 'sub_q4', createdAt: at(4), values: { name: 'Back\\slash' } },
        { id: 'sub_q5', createdAt: at(5), values: { topics: ['Pressé', 'general'] } },
        { id: 'sub_q6', createdAt: at(6), values: { message: 'x', consent: true } },
        { id: 'sub_q7', createdAt: at(7), values: { qty: 42 } },
        { id: 'sub_q8', createdAt: at(8), values: { name: 'say "hi"' } },
      ]);
      const q = (text: string) => `q=${encodeURIComponent(text)}`;
      const cases: [string, string[]][] = [
        ['ada', ['sub_q1']],
        ['LOVELACE', ['sub_q1']],
        ['  hello  ', ['sub_q1']],
        // Unescaped, `%` and `_` would match every submission.
        ['%', ['sub_q2']],
        ['_', ['sub_q3']],
        ['\\', ['sub_q4']],
        ['"hi"', ['sub_q8']],
        // Field keys are not searched, nor booleans.
        ['message', []],
        ['msg', []],
        ['true', []],
        // List items and numbers are values.
        ['general', ['sub_q5']],
        ['Pressé', ['sub_q5']],
        ['42', ['sub_q7']],
        // An empty search box is no search.
        ['', ['sub_q1', 'sub_q2', 'sub_q3', 'sub_q4', 'sub_q5', 'sub_q6', 'sub_q7', 'sub_q8']],
      ];
      for (const [text, expected] of cases)
        expect([text, await sorted('search', q(text))]).toEqual([text, expected]);
      // Combined with another filter.
      expect(await sorted('search', `${q('e')}&field[name]=Grace`)).toEqual(['sub_q2']);
    });

    it('refuses bad, unknown and repeated parameters with 400 invalid_query naming the parameter', async () => {
      await seed('params', [{ id: 'sub_par1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const elevenFields = Array.from({ length: 11 }, (_, i) => `field[f${i}]=x`).join('&');
      const cases: [string, string][] = [
        ['folder=trash', 'folder'],
        ['status=new,bogus', 'status'],
        ['status=', 'status'],
        ['status=new&status=read', 'status'],
        [`q=${'x'.repeat(201)}`, 'q'],
        ['q=%00', 'q'],
        ['from=2026-02-30', 'from'],
        ['from=2026-03-01T24:00:00Z', 'from'],
        ['to=2026-03-15T10:00', 'to'],
        ['to=yesterday', 'to'],
        ['from=2026-03-02&to=2026-03-01', 'from'],
        ['field[bad%20key]=x', 'field[bad key]'],
        ['field[a]=x&field[a]=y', 'field[a]'],
        [elevenFields, 'field'],
        ['sort=name', 'sort'],
        ['assignee=Ada', 'assignee'],
        ['token=abc', 'token'],
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ];
      for (const [query, parameter] of cases) {
        const res = await call('GET', `${base('params')}?${query}`);
        expect([query, res.status, res.body.error?.code, res.body.error?.details?.parameter]).toEqual([
          query,
          400,
          'invalid_query',
          parameter,
        ]);
      }
    });

    it('pages by keyset: every item once, in a stable order, while new submissions arrive', async () => {
      const at = (s: number) => `2026-03-01T10:00:0${s}.000Z`;
      // Three share one created_at: the id breaks the tie.
      await seed('paging', [
        { id: 'sub_p1', createdAt: at(1) },
        { id: 'sub_p2', createdAt: at(2) },
        { id: 'sub_p3', createdAt: at(2) },
        { id: 'sub_p4', createdAt: at(2) },
        { id: 'sub_p5', createdAt: at(3) },
        { id: 'sub_p6', createdAt: at(4) },
        { id: 'sub_p7', createdAt: at(5) },
      ]);
      const page = async (cursor: string | null) => {
        const res = await call(
          'GET',
          `${base('paging')}?limit=3${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        expect(res.status).toBe(200);
        return {
          ids: res.body.items.map((i: { id: string }) => i.id) as string[],
          next: res.body.nextCursor as string | null,
        };
      };
      const first = await page(null);
      expect(first.ids).toEqual(['sub_p7', 'sub_p6', 'sub_p5']);
      // A newer submission arrives between pages: it does not shift what follows.
      await seed('paging', [{ id: 'sub_p8', createdAt: at(9) }]);
      const second = await page(first.next);
      expect(second.ids).toEqual(['sub_p4', 'sub_p3', 'sub_p2']);
      const third = await page(second.next);
      expect(third).toEqual({ ids: ['sub_p1'], next: null });
      // The cursor is opaque base64url of created_at|id.
      expect(Buffer.from(first.next ?? '', 'base64url').toString()).toBe(`${at(3)}|sub_p5`);
      // Filters and cursors combine.
      const filtered = await call('GET', `${base('paging')}?limit=2&status=new&cursor=${first.next}`);
      expect(filtered.body.items.map((i: { id: string }) => i.id)).toEqual(['sub_p4', 'sub_p3']);
    });

    it("lists and changes a deleted form's submissions until their retention ends; an unknown key is 404", async () => {
      await putForms(t, SPACE, [emailForm('gone')]);
      expect((await submit('gone', { email: 'ada@example.com' })).status).toBe(200);
      const [id] = await ids('gone');
      expect((await call('DELETE', `/v1/spaces/${SPACE}/forms/gone`)).status).toBe(200);
      expect(await ids('gone')).toEqual([id]);
      expect((await call('GET', `${base('gone')}/${id}`)).body.submission.values).toEqual({
        email: 'ada@example.com',
      });
      expect((await call('PATCH', `${base('gone')}/${id}`, { status: 'done' })).body.submission.status).toBe(
        'done',
      );
      expect(
        (await call('POST', `${base('gone')}/bulk`, { action: 'assign', assignee: ada.id, ids: [id] })).body,
      ).toEqual({ count: 1 });
      for (const res of [
        await call('GET', base('never')),
        await call('POST', `${base('never')}/bulk`, { action: 'status', status: 'done', filter: {} }),
      ])
        expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
    });
  });

  describe('one submission', () => {
    it('reads one with its notes; PATCH sets status and assignee; unknown ids and other forms are 404', async () => {
      await seed('detail', [
        { id: 'sub_det1', createdAt: '2026-03-01T10:00:00.000Z', values: { name: 'Ada' } },
      ]);
      await seed('other', [{ id: 'sub_oth1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const one = await call('GET', `${base('detail')}/sub_det1`);
      expect(one.status).toBe(200);
      expect(one.headers['cache-control']).toBe('no-store');
      expect(one.body.submission).toMatchObject({ id: 'sub_det1', status: 'new', notes: [], noteCount: 0 });

      t.clock.current = new Date(t.clock.current.getTime() + 1000);
      const patched = await call('PATCH', `${base('detail')}/sub_det1`, {
        status: 'done',
        assignee: ada.id,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.submission).toMatchObject({
        status: 'done',
        assignee: ada.id,
        assigneeName: 'Ada Lovelace',
        updatedAt: t.clock.current.toISOString(),
        values: { name: 'Ada' },
        notes: [],
      });
      const unassigned = await call('PATCH', `${base('detail')}/sub_det1`, { assignee: null });
      expect(unassigned.body.submission).toMatchObject({ status: 'done', assignee: null });

      for (const res of [
        await call('GET', `${base('detail')}/sub_nope`),
        await call('GET', `${base('detail')}/sub_oth1`),
        await call('PATCH', `${base('detail')}/sub_nope`, { status: 'read' }),
        await call('PATCH', `${base('other')}/sub_det1`, { status: 'read' }),
      ])
        expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
      expect((await row('sub_oth1'))?.status).toBe('new');
    });

    it('checks PATCH bodies strictly: 400 invalid_body naming the member', async () => {
      await seed('strict', [{ id: 'sub_str1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const cases: [unknown, string][] = [
        [{}, ''],
        [[], ''],
        ['done', ''],
        [{ status: 'bogus' }, 'status'],
        [{ status: 'done', folder: 'spam' }, 'folder'],
        [{ assignee: '' }, 'assignee'],
        [{ assignee: '   ' }, 'assignee'],
        [{ assignee: 'x'.repeat(201) }, 'assignee'],
        [{ assignee: 7 }, 'assignee'],
        [{ assignee: 'a\u0000b' }, 'assignee'],
        // An id, but nobody of this space.
        [{ assignee: 'tok_nobodyhere00000001' }, 'assignee'],
      ];
      for (const [body, member] of cases) {
        const res = await t.inject({
          method: 'PATCH',
          url: `${base('strict')}/sub_str1`,
          headers: { authorization: `Bearer ${TOKENS.management}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect([body, res.status, res.body.error?.code, res.body.error?.details?.member]).toEqual([
          body,
          400,
          'invalid_body',
          member,
        ]);
      }
      const stored = await row('sub_str1');
      expect([stored?.status, stored?.assignee, stored?.updated_at]).toEqual(['new', null, null]);
    });
  });

  describe('notes', () => {
    it('adds, lists oldest first, counts and deletes notes; the author is the name the caller gives', async () => {
      await seed('notes', [{ id: 'sub_not1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const url = `${base('notes')}/sub_not1/notes`;
      const first = await call('POST', url, { text: 'Called back.\nWill write.', author: ' Ada ' });
      expect(first.status).toBe(201);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.body.note).toEqual({
        id: expect.stringMatching(/^nte_/),
        text: 'Called back.\nWill write.',
        author: 'Ada',
        createdAt: t.clock.current.toISOString(),
      });
      t.clock.current = new Date(t.clock.current.getTime() + 1000);
      const second = (await call('POST', url, { text: 'Done', author: 'Bob' })).body.note;
      const one = await call('GET', `${base('notes')}/sub_not1`);
      expect(one.body.submission.notes.map((n: { id: string }) => n.id)).toEqual([
        first.body.note.id,
        second.id,
      ]);
      expect(one.body.submission.noteCount).toBe(2);

      const removed = await call('DELETE', `${url}/${first.body.note.id}`);
      expect([removed.status, removed.body]).toEqual([200, { id: first.body.note.id, deleted: true }]);
      const again = await call('DELETE', `${url}/${first.body.note.id}`);
      expect([again.status, again.body.error.code]).toEqual([404, 'not_found']);
      expect(await noteIds('sub_not1')).toEqual([second.id]);

      const bad: [unknown, string][] = [
        [{ text: '', author: 'A' }, 'text'],
        [{ text: ' \n ', author: 'A' }, 'text'],
        [{ text: 'x'.repeat(5001), author: 'A' }, 'text'],
        [{ text: 'x', author: '' }, 'author'],
        [{ text: 'x', author: 'x'.repeat(201) }, 'author'],
        [{ text: 'x' }, 'author'],
        [{ text: 'x', author: 'A', pinned: true }, 'pinned'],
      ];
      for (const [body, member] of bad) {
        const res = await call('POST', url, body);
        expect([member, res.status, res.body.error?.details?.member]).toEqual([member, 400, member]);
      }
      expect((await call('POST', url, { text: 'x'.repeat(5000), author: 'x'.repeat(200) })).status).toBe(201);
      const missing = await call('POST', `${base('notes')}/sub_nope/notes`, { text: 'x', author: 'A' });
      expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    });

    it('notes go with their submission: deleted with it, and by the retention sweep', async () => {
      await seed('notes2', [
        { id: 'sub_nd1', createdAt: '2026-03-01T10:00:00.000Z' },
        // Its retention ends before the sweep below; nothing else stored here does.
        { id: 'sub_nd2', createdAt: '2026-03-01T10:00:00.000Z', deleteAfter: '2026-03-10T00:00:00.000Z' },
      ]);
      for (const id of ['sub_nd1', 'sub_nd2'])
        expect((await call('POST', `${base('notes2')}/${id}/notes`, { text: 'n', author: 'A' })).status).toBe(
          201,
        );
      expect((await call('DELETE', `${base('notes2')}/sub_nd1`)).status).toBe(200);
      expect(await noteIds('sub_nd1')).toEqual([]);

      expect(await noteIds('sub_nd2')).toHaveLength(1);
      const swept = await sweepRetention(
        t.store,
        { blobs, mailDir: t.config.mail.outboxDir },
        new Date('2026-03-11T00:00:00.000Z'),
      );
      expect(swept.submissions).toBe(1);
      expect(await row('sub_nd2')).toBeUndefined();
      expect(await noteIds('sub_nd2')).toEqual([]);
    });
  });

  describe('deleting', () => {
    it('deletes a submission with its notes, uploads and files and notification records; capacity comes back', async () => {
      await putForms(t, SPACE, [emailForm('deleting', { maxSubmissions: 5 })]);
      for (const email of ['a@example.com', 'b@example.com'])
        expect((await submit('deleting', { email })).status).toBe(200);
      expect(await counter('deleting')).toBe(2);
      const [newest, oldest] = await ids('deleting');
      const id = oldest ?? '';
      const key = await addUpload('deleting', id, 'fup_del1');
      await t.store.db
        .insertInto('notification_sends')
        .values({
          id: 'job_del1',
          space_id: SPACE,
          submission_id: id,
          channel: 'email',
          state: 'sent',
          message_id: null,
          updated_at: t.clock.current.toISOString(),
        })
        .execute();
      expect((await call('POST', `${base('deleting')}/${id}/notes`, { text: 'n', author: 'A' })).status).toBe(
        201,
      );

      const res = await call('DELETE', `${base('deleting')}/${id}`);
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        200,
        { id, deleted: true, files: 1 },
        'no-store',
      ]);
      expect(await row(id)).toBeUndefined();
      expect(await noteIds(id)).toEqual([]);
      expect(await blobExists(key)).toBe(false);
      const uploads = await t.store.db
        .selectFrom('uploads')
        .select('id')
        .where('submission_id', '=', id)
        .execute();
      const sends = await t.store.db
        .selectFrom('notification_sends')
        .select('id')
        .where('submission_id', '=', id)
        .execute();
      expect([uploads, sends]).toEqual([[], []]);
      expect(await counter('deleting')).toBe(1);
      expect(await ids('deleting')).toEqual([newest]);
      const again = await call('DELETE', `${base('deleting')}/${id}`);
      expect([again.status, again.body.error.code]).toEqual([404, 'not_found']);
    });
  });

  describe('bulk actions', () => {
    it("by ids: changes the form's named submissions, ignores others, answers the count", async () => {
      const at = (i: number) => `2026-03-01T10:00:0${i}.000Z`;
      await seed('bulk', [
        { id: 'sub_b1', createdAt: at(1), values: { topic: 'press' } },
        { id: 'sub_b2', createdAt: at(2), values: { topic: 'press' } },
        { id: 'sub_b3', createdAt: at(3), values: { topic: 'general' } },
        { id: 'sub_b4', createdAt: at(4), values: { topic: 'general' } },
      ]);
      await seed('bulk_other', [{ id: 'sub_bo1', createdAt: at(1) }]);
      const bulk = (body: unknown) => call('POST', `${base('bulk')}/bulk`, body);
      const done = await bulk({
        action: 'status',
        status: 'done',
        ids: ['sub_b1', 'sub_b2', 'sub_bo1', 'sub_nope'],
      });
      expect([done.status, done.body, done.headers['cache-control']]).toEqual([
        200,
        { count: 2 },
        'no-store',
      ]);
      expect((await row('sub_bo1'))?.status).toBe('new');
      expect((await bulk({ action: 'assign', assignee: ada.id, ids: ['sub_b3', 'sub_b3'] })).body).toEqual({
        count: 1,
      });
      expect(await sorted('bulk', 'status=done')).toEqual(['sub_b1', 'sub_b2']);
      expect(await sorted('bulk', `assignee=${ada.id}`)).toEqual(['sub_b3']);

      // By filter: every match, whatever the list's limit would be.
      const byFilter = await bulk({
        action: 'assign',
        assignee: bob.id,
        filter: { 'field[topic]': 'general' },
      });
      expect(byFilter.body).toEqual({ count: 2 });
      expect(await sorted('bulk', `assignee=${bob.id}`)).toEqual(['sub_b3', 'sub_b4']);
      expect((await bulk({ action: 'assign', assignee: null, filter: { assignee: bob.id } })).body).toEqual({
        count: 2,
      });
      expect(await sorted('bulk', 'assignee=')).toEqual(['sub_b1', 'sub_b2', 'sub_b3', 'sub_b4']);
      expect((await bulk({ action: 'status', status: 'read', filter: { status: 'archived' } })).body).toEqual(
        {
          count: 0,
        },
      );
      expect((await bulk({ action: 'delete', filter: { status: 'done' } })).body).toEqual({ count: 2 });
      expect(await sorted('bulk', '')).toEqual(['sub_b3', 'sub_b4']);
    });

    it('checks bulk bodies strictly: 400 invalid_body naming the member', async () => {
      await seed('bulk_strict', [{ id: 'sub_bs1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const ids1001 = Array.from({ length: 1001 }, (_, i) => `sub_x${i}`);
      const cases: [unknown, string][] = [
        [{ action: 'explode', ids: ['sub_bs1'] }, 'action'],
        [{ action: 'status', ids: ['sub_bs1'] }, 'status'],
        [{ action: 'status', status: 'gone', ids: ['sub_bs1'] }, 'status'],
        [{ action: 'assign', ids: ['sub_bs1'] }, 'assignee'],
        [{ action: 'delete', status: 'done', ids: ['sub_bs1'] }, 'status'],
        [{ action: 'spam', assignee: 'A', ids: ['sub_bs1'] }, 'assignee'],
        [{ action: 'status', status: 'done' }, 'ids'],
        [{ action: 'status', status: 'done', ids: ['sub_bs1'], filter: {} }, 'ids'],
        [{ action: 'status', status: 'done', ids: [] }, 'ids'],
        [{ action: 'status', status: 'done', ids: ids1001 }, 'ids'],
        [{ action: 'status', status: 'done', ids: ['sub_bs1', 5] }, 'ids[1]'],
        [{ action: 'status', status: 'done', filter: [] }, 'filter'],
        [{ action: 'status', status: 'done', filter: { folder: 'trash' } }, 'filter.folder'],
        [{ action: 'status', status: 'done', filter: { limit: '5' } }, 'filter.limit'],
        [{ action: 'status', status: 'done', filter: { status: ['new'] } }, 'filter.status'],
        [{ action: 'status', status: 'done', ids: ['sub_bs1'], dryRun: true }, 'dryRun'],
      ];
      for (const [body, member] of cases) {
        const res = await call('POST', `${base('bulk_strict')}/bulk`, body);
        expect([member, res.status, res.body.error?.code, res.body.error?.details?.member]).toEqual([
          member,
          400,
          'invalid_body',
          member,
        ]);
      }
      expect((await row('sub_bs1'))?.status).toBe('new');
    });

    it('a filter matching more than 10,000 is refused whole; up to 10,000 change in one call', async () => {
      const start = Date.parse('2025-01-01T00:00:00.000Z');
      const rows = Array.from({ length: 10_001 }, (_, i) => ({
        id: `sub_m${String(i).padStart(5, '0')}`,
        space_id: SPACE,
        form_key: 'many',
        folder: 'inbox' as const,
        values: '{}',
        page: null,
        locale: 'en',
        user_agent: null,
        consent: '{}',
        unique_key: null,
        created_at: new Date(start + i * 1000).toISOString(),
        delete_after: '2027-01-01T00:00:00.000Z',
      }));
      for (let i = 0; i < rows.length; i += 500)
        await t.store.db
          .insertInto('submissions')
          .values(rows.slice(i, i + 500))
          .execute();
      const bulk = (filter: Record<string, string>) =>
        call('POST', `${base('many')}/bulk`, { action: 'status', status: 'done', filter });
      const refused = await bulk({});
      expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([
        400,
        'invalid_body',
        { member: 'filter', max: 10_000 },
      ]);
      const doneCount = async () =>
        Number(
          (
            await t.store.db
              .selectFrom('submissions')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('form_key', '=', 'many')
              .where('status', '=', 'done')
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await doneCount()).toBe(0);
      const last = rows[10_000]?.created_at ?? '';
      expect((await bulk({ to: last })).body).toEqual({ count: 10_000 });
      expect(await doneCount()).toBe(10_000);
    }, 60_000);

    it('a failing bulk changes nothing: a crash mid-delete rolls back every row, note and counter', async () => {
      await putForms(t, SPACE, [emailForm('crash', { maxSubmissions: 10 })]);
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
        expect((await submit('crash', { email })).status).toBe(200);
      const all = await ids('crash');
      const keys: string[] = [];
      for (const [i, id] of all.entries()) {
        keys.push(await addUpload('crash', id, `fup_crash${i}`));
        expect((await call('POST', `${base('crash')}/${id}/notes`, { text: 'n', author: 'A' })).status).toBe(
          201,
        );
      }
      expect(
        (await call('POST', `${base('crash')}/bulk`, { action: 'status', status: 'read', ids: all })).status,
      ).toBe(200);
      blobs.failAfter = keys[1] ?? null;
      try {
        const res = await call('POST', `${base('crash')}/bulk`, { action: 'delete', filter: {} });
        expect([res.status, res.body.error.code]).toEqual([500, 'internal_error']);
      } finally {
        blobs.failAfter = null;
      }
      expect(await sorted('crash', 'status=read')).toEqual([...all].sort());
      for (const id of all) expect(await noteIds(id)).toHaveLength(1);
      expect(await counter('crash')).toBe(3);
      // Files already deleted stay deleted (as with the retention sweep); running the call again finishes it.
      expect((await call('POST', `${base('crash')}/bulk`, { action: 'delete', filter: {} })).body).toEqual({
        count: 3,
      });
      expect(await ids('crash')).toEqual([]);
      expect(await counter('crash')).toBe(0);
      for (const key of keys) expect(await blobExists(key)).toBe(false);
    });
  });

  describe('spam moves (spec 3.1, 3.2)', () => {
    it('spam gives capacity back; not_spam takes it again, refusing what does not fit in a full form', async () => {
      await putForms(t, SPACE, [emailForm('capped', { maxSubmissions: 2, retentionDays: 10 })]);
      const created: string[] = [];
      // A spam-trapped submission between two valid ones (a full form refuses even those: spec 3.1 before 3.2).
      for (const body of [
        { email: 'a@example.com' },
        { email: 'bot@example.com', website: 'http://spam.example' },
        { email: 'b@example.com' },
      ]) {
        expect((await submit('capped', body)).status).toBe(200);
        created.push(t.clock.current.toISOString());
      }
      expect(await counter('capped')).toBe(2);
      const [b, a] = await ids('capped');
      const [bot] = await ids('capped', 'folder=spam');
      const bulk = (body: Record<string, unknown>) => call('POST', `${base('capped')}/bulk`, body);

      // Full: one named spam submission cannot move back (409 form_full), and nothing changes.
      const refused = await bulk({ action: 'not_spam', ids: [bot] });
      expect([refused.status, refused.body.error.code]).toEqual([409, 'form_full']);
      expect((await row(bot ?? ''))?.folder).toBe('spam');

      // inbox → spam: its place goes back; its 10-day retention is shorter than 30 days from now, so it stays.
      const before = await row(a ?? '');
      t.clock.current = new Date(t.clock.current.getTime() + 1000);
      expect((await bulk({ action: 'spam', ids: [a, bot] })).body).toEqual({ count: 1, skipped: 0 });
      const moved = await row(a ?? '');
      expect([moved?.folder, moved?.delete_after, moved?.updated_at]).toEqual([
        'spam',
        before?.delete_after,
        t.clock.current.toISOString(),
      ]);
      expect(await counter('capped')).toBe(1);
      expect(await ids('capped')).toEqual([b]);

      // spam → inbox: one place left, two candidates; the older one moves, the other is skipped.
      const back = await bulk({ action: 'not_spam', filter: { folder: 'spam' } });
      expect(back.body).toEqual({ count: 1, skipped: 1 });
      expect(await ids('capped')).toEqual([b, a]);
      expect(await ids('capped', 'folder=spam')).toEqual([bot]);
      expect((await row(a ?? ''))?.delete_after).toBe(
        new Date(Date.parse(created[0] ?? '') + 10 * DAY).toISOString(),
      );
      expect(await counter('capped')).toBe(2);
      // The form is full again: a visitor's submission is refused as before.
      expect((await submit('capped', { email: 'c@example.com' })).status).toBe(409);
    });

    it('spam keeps a submission 30 days from the move at most; not_spam takes retentionDays from creation', async () => {
      await putForms(t, SPACE, [emailForm('keep', { uniqueField: 'email' })]);
      expect((await submit('keep', { email: 'ada@example.com' })).status).toBe(200);
      const [id] = await ids('keep');
      const createdAt = (await row(id ?? ''))?.created_at ?? '';
      t.clock.current = new Date(t.clock.current.getTime() + 5 * DAY);
      expect((await call('POST', `${base('keep')}/bulk`, { action: 'spam', ids: [id] })).body).toEqual({
        count: 1,
        skipped: 0,
      });
      expect((await row(id ?? ''))?.delete_after).toBe(
        new Date(t.clock.current.getTime() + 30 * DAY).toISOString(),
      );
      // A spam submission holds no uniqueField address: the visitor may submit again.
      expect((await submit('keep', { email: 'ada@example.com' })).status).toBe(200);
      expect((await call('POST', `${base('keep')}/bulk`, { action: 'not_spam', ids: [id] })).body).toEqual({
        count: 1,
        skipped: 0,
      });
      expect((await row(id ?? ''))?.delete_after).toBe(
        new Date(Date.parse(createdAt) + 365 * DAY).toISOString(),
      );
      expect(await ids('keep')).toHaveLength(2);
    });
  });

  describe('permissions (spec 4.5: only forms.read sees submissions)', () => {
    it('every inbox route needs forms.read; deleting needs forms.write too', async () => {
      await seed('perm', [{ id: 'sub_perm1', createdAt: '2026-03-01T10:00:00.000Z' }]);
      const note = (await call('POST', `${base('perm')}/sub_perm1/notes`, { text: 'n', author: 'A' })).body
        .note;
      const content = await storeToken(['content.write', 'forms.write']);
      const probes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown][] = [
        ['GET', base('perm'), undefined],
        ['GET', `${base('perm')}/sub_perm1`, undefined],
        ['PATCH', `${base('perm')}/sub_perm1`, { status: 'done' }],
        ['DELETE', `${base('perm')}/sub_perm1`, undefined],
        ['POST', `${base('perm')}/sub_perm1/notes`, { text: 'n', author: 'A' }],
        ['DELETE', `${base('perm')}/sub_perm1/notes/${note.id}`, undefined],
        ['POST', `${base('perm')}/bulk`, { action: 'status', status: 'done', ids: ['sub_perm1'] }],
      ];
      for (const [method, url, body] of probes) {
        const res = await call(method, url, body, content);
        expect([method, url, res.status, res.body.error?.code]).toEqual([method, url, 403, 'forbidden']);
        const anonymous = await t.inject({ method, url });
        expect([method, url, anonymous.status]).toEqual([method, url, 401]);
      }
      const reader = await storeToken(['forms.read']);
      for (const [method, url, body] of [
        ['DELETE', `${base('perm')}/sub_perm1`, undefined],
        ['POST', `${base('perm')}/bulk`, { action: 'delete', ids: ['sub_perm1'] }],
      ] as const) {
        const res = await call(method, url, body, reader);
        expect([res.status, res.body.error.details.missingScopes]).toEqual([403, ['forms.write']]);
      }
      expect((await row('sub_perm1'))?.status).toBe('new');
      expect((await call('GET', `${base('perm')}/sub_perm1`, undefined, reader)).status).toBe(200);
      const both = await storeToken(['forms.read', 'forms.write']);
      expect((await call('DELETE', `${base('perm')}/sub_perm1`, undefined, both)).status).toBe(200);
    });
  });

  describe('activity log', () => {
    it('records one entry per change with counts, never submission values or note texts', async () => {
      await seed('audit', [
        {
          id: 'sub_aud1',
          createdAt: '2026-03-01T10:00:00.000Z',
          values: { email: 'secret-ada@example.com' },
        },
        {
          id: 'sub_aud2',
          createdAt: '2026-03-01T10:00:01.000Z',
          values: { email: 'secret-bob@example.com' },
        },
      ]);
      const url = base('audit');
      await call('GET', url);
      await call('GET', `${url}/sub_aud1`);
      await call('PATCH', `${url}/sub_aud1`, { status: 'read' });
      const note = (await call('POST', `${url}/sub_aud1/notes`, { text: 'secret note', author: 'Ada' })).body
        .note;
      await call('DELETE', `${url}/sub_aud1/notes/${note.id}`);
      await call('POST', `${url}/bulk`, {
        action: 'assign',
        assignee: bob.id,
        ids: ['sub_aud1', 'sub_aud2'],
      });
      await call('POST', `${url}/bulk`, { action: 'spam', filter: { q: 'secret-bob' } });
      // Changing nothing records nothing.
      await call('POST', `${url}/bulk`, { action: 'status', status: 'done', filter: { status: 'archived' } });
      await call('POST', `${url}/bulk`, { action: 'delete', filter: { folder: 'spam' } });
      await call('DELETE', `${url}/sub_aud1`);

      const rows = await t.store.db
        .selectFrom('activity_log')
        .selectAll()
        .where('subject', '=', 'audit')
        .orderBy('at')
        .orderBy('id')
        .execute();
      const entries = rows.map((r) => ({
        action: r.action,
        details: t.store.dialect.parseJson<Record<string, unknown>>(r.details),
      }));
      expect(entries).toEqual([
        { action: 'submissions.updated', details: { count: 1, submission: 'sub_aud1', status: 'read' } },
        { action: 'submission.note_added', details: { submission: 'sub_aud1', note: note.id } },
        { action: 'submission.note_deleted', details: { submission: 'sub_aud1', note: note.id } },
        { action: 'submissions.updated', details: { count: 2, assignee: bob.id } },
        { action: 'submissions.updated', details: { count: 1, folder: 'spam', skipped: 0 } },
        { action: 'submissions.deleted', details: { count: 1 } },
        { action: 'submissions.deleted', details: { count: 1, submission: 'sub_aud1' } },
      ]);
      const token = await t.store.db
        .selectFrom('tokens')
        .select('id')
        .where('hash', '=', hashToken(TOKENS.management))
        .executeTakeFirst();
      expect(new Set(rows.map((r) => r.actor))).toEqual(new Set([token?.id]));
      expect(JSON.stringify(rows)).not.toMatch(/secret/);
    });
  });
});
