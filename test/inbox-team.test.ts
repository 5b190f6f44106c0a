// The inbox a team opens every morning, through the API on both engines: people on management tokens,
// assignment by person, read marks per person with unread counts, filters by option with sort and totals, search
// that folds like people do (German, French, Turkish, Greek), the backfill of submissions stored before, and
// exports in words (CSV and XLSX, opened with exceljs).

import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../src/errors/errors.js';
import { parseCursor, parseSort } from '../src/forms/inbox/cursor.js';
import { parsePerson } from '../src/management/token-ops.js';
import { INBOX_SEARCH_REINDEX } from '../src/forms/inbox/backfill-repo.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { formClient, type FormsApp, openFormsApp, putForms } from './helpers/forms.js';
import { parseCsv } from './helpers/csv.js';

/** A CSV export as its heading and its rows by heading. */
function readCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  return { header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))) };
}
import { storePerson } from './helpers/tokens.js';

const SPACE = 'spc_test';
const M = `/v1/spaces/${SPACE}`;
const base = (form: string) => `${M}/forms/${form}/submissions`;

const ENQUIRY: FormDefinition = {
  key: 'enquiry',
  name: 'Enquiries',
  fields: [
    { key: 'name', type: 'text', label: 'Name', translations: { de: { label: 'Name (de)' } } },
    { key: 'email', type: 'email', label: 'Email' },
    {
      key: 'topic',
      type: 'select',
      label: 'Topic',
      options: [
        { value: 'press', label: 'Press enquiry' },
        { value: 'sales', label: 'Sales' },
        { value: 'support', label: 'Support' },
      ],
      translations: { de: { label: 'Thema', options: { press: 'Presseanfrage' } } },
    },
    { key: 'guests', type: 'number', label: 'Guests' },
    { key: 'newsletter', type: 'checkbox', label: 'Newsletter' },
    { key: 'message', type: 'textarea', label: 'Message' },
  ],
  settings: {},
};

describe('the new parsers take any junk without crashing (STYLE.md rule 13)', () => {
  const only = (code: string, parse: () => unknown) => {
    try {
      parse();
    } catch (err) {
      expect(err instanceof FolioError && err.code === code).toBe(true);
    }
  };
  it('parsePerson answers a person, null or invalid_body', () => {
    fc.assert(fc.property(fc.anything(), (raw) => only('invalid_body', () => parsePerson(raw))));
  });
  it('parseSort and parseCursor answer an order, a position or invalid_query', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.string(), (sort, cursor) => {
        only('invalid_query', () => parseSort(sort ?? undefined));
        only('invalid_query', () => parseCursor(cursor, 'oldest'));
        only('invalid_query', () => parseCursor(Buffer.from(cursor).toString('base64url')));
      }),
    );
  });
});

describe.each(ENGINES)('the team inbox on %s', (engine) => {
  let t: FormsApp;
  let mara: { id: string; token: string };
  let bo: { id: string; token: string };
  const { submit } = formClient(() => t);
  const as = (token: string) => (method: string, url: string, payload?: unknown) => {
    t.clock.current = new Date(t.clock.current.getTime() + 1);
    return t.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  };
  const admin = as(TOKENS.management);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await openFormsApp(engine);
    await putForms(t, SPACE, [ENQUIRY]);
    mara = await storePerson(t.store, SPACE, 'Mara Rossi', 'mara@example.com', ['forms.read']);
    bo = await storePerson(t.store, SPACE, 'Bo', null, ['forms.read', 'forms.write']);
    const people: [string, Record<string, unknown>][] = [
      [
        'muller',
        { name: 'Jürgen Müller', email: 'j@example.com', topic: 'press', guests: 2, message: 'Interview?' },
      ],
      ['zoe', { name: 'Zoë Dubois', topic: 'sales', newsletter: true, message: 'Un devis, svp.' }],
      ['elodie', { name: 'Élodie Fèvre', topic: 'press', message: 'Œuvre complète' }],
      ['ilkay', { name: 'İlkay Şahin', topic: 'support', message: 'İstanbul ofisi' }],
      ['isik', { name: 'Işık Yılmaz', topic: 'press', message: 'Merhaba' }],
      ['giorgos', { name: 'Γιώργος Παπαδόπουλος', topic: 'sales', message: 'Καλημέρα' }],
      ['strasse', { name: 'Hans Straße', topic: 'support', message: 'Grüße' }],
    ];
    for (const [name, values] of people) {
      expect((await submit('enquiry', values)).status).toBe(200);
      const list = await admin('GET', `${base('enquiry')}?limit=1`);
      ids[name] = list.body.items[0].id;
    }
  });
  afterAll(async () => t?.close());

  describe('people', () => {
    it('a management token carries a person: set at creation, changed by tokens.admin, listed for forms.read', async () => {
      const created = await admin('POST', `${M}/tokens`, {
        kind: 'management',
        scopes: ['forms.read'],
        person: { name: '  Ada Lovelace ', email: 'ada@example.com' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.token.person).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
      const id = created.body.token.id as string;
      const people = await as(mara.token)('GET', `${M}/people`);
      expect(people.status).toBe(200);
      expect(people.body.people.map((p: { name: string }) => p.name)).toEqual([
        'Ada Lovelace',
        'Bo',
        'Mara Rossi',
      ]);
      const renamed = await admin('PATCH', `${M}/tokens/${id}`, { person: { name: 'Ada King' } });
      expect([renamed.status, renamed.body.token.person]).toEqual([200, { name: 'Ada King', email: null }]);
      // The activity log records the change, never the name or the address.
      const log = await admin('GET', `${M}/activity?action=token.updated`);
      expect(log.body.items[0]).toMatchObject({ subject: id, details: { person: 'set' } });
      expect(JSON.stringify(log.body.items)).not.toContain('Ada');
      const removed = await admin('PATCH', `${M}/tokens/${id}`, { person: null });
      expect(removed.body.token.person).toBeNull();
      // Without tokens.admin: 403; a bad person or a person on a public token: 400 naming the member.
      expect((await as(mara.token)('PATCH', `${M}/tokens/${id}`, { person: null })).status).toBe(403);
      for (const [url, body, member] of [
        [`${M}/tokens/${id}`, { person: { name: '' } }, 'person.name'],
        [`${M}/tokens/${id}`, { person: { name: 'X', email: 'not-an-address' } }, 'person.email'],
        [`${M}/tokens/${id}`, { person: { name: 'X', role: 'boss' } }, 'person.role'],
        [`${M}/tokens`, { kind: 'public', person: { name: 'X' } }, 'person'],
      ] as const) {
        const res = await admin(url.endsWith('tokens') ? 'POST' : 'PATCH', url, body);
        expect([res.status, res.body.error?.code, res.body.error?.details?.member]).toEqual([
          400,
          'invalid_body',
          member,
        ]);
      }
    });

    it('the session names its person; assignments and activity name people, notes are signed by them', async () => {
      const session = await t.inject({
        method: 'POST',
        url: '/inbox/session',
        payload: { token: mara.token },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(session.body.session.person).toEqual({
        id: mara.id,
        name: 'Mara Rossi',
        email: 'mara@example.com',
      });

      const url = `${base('enquiry')}/${ids['zoe']}`;
      const assigned = await as(bo.token)('PATCH', url, { assignee: mara.id });
      expect(assigned.body.submission).toMatchObject({ assignee: mara.id, assigneeName: 'Mara Rossi' });
      const note = await as(mara.token)('POST', `${url}/notes`, { text: 'Called back.' });
      expect([note.status, note.body.note.author]).toEqual([201, 'Mara Rossi']);
      // A tool's token names nobody: the author must be given.
      const anonymous = await admin('POST', `${url}/notes`, { text: 'x' });
      expect([anonymous.status, anonymous.body.error.details.member]).toEqual([400, 'author']);
      const activity = await admin('GET', `${url}/activity`);
      expect(activity.body.items.map((a: { actorName: string | null }) => a.actorName)).toEqual([
        'Bo',
        'Mara Rossi',
      ]);
      // Filtering by the person, case and spelling no longer matter: it is an id.
      const mine = await admin('GET', `${base('enquiry')}?assignee=${mara.id}`);
      expect([mine.body.total, mine.body.items.map((i: { id: string }) => i.id)]).toEqual([1, [ids['zoe']]]);
    });
  });

  describe('read marks', () => {
    const unread = async (token: string) => (await as(token)('GET', base('enquiry'))).body.unread as number;
    const overviewUnread = async (token: string) =>
      (await as(token)('GET', `${M}/forms-overview`)).body.forms.find(
        (f: { key: string }) => f.key === 'enquiry',
      ).counts.unread as number;

    it('opening marks read for that person only; mark unread takes it back; counts follow', async () => {
      expect([await unread(mara.token), await unread(bo.token)]).toEqual([7, 7]);
      const url = `${base('enquiry')}/${ids['muller']}`;
      expect((await as(mara.token)('PUT', `${url}/read`)).body).toEqual({ id: ids['muller'], read: true });
      // Twice is the same mark.
      expect((await as(mara.token)('PUT', `${url}/read`)).status).toBe(200);
      expect((await as(mara.token)('GET', url)).body.submission.read).toBe(true);
      expect((await as(bo.token)('GET', url)).body.submission.read).toBe(false);
      const marasList = await as(mara.token)('GET', base('enquiry'));
      expect(marasList.body.items.find((i: { id: string }) => i.id === ids['muller']).read).toBe(true);
      expect([await unread(mara.token), await unread(bo.token)]).toEqual([6, 7]);
      expect([await overviewUnread(mara.token), await overviewUnread(bo.token)]).toEqual([6, 7]);
      // Reading is no change to the submission: status and activity stay as they were.
      const row = await t.store.db
        .selectFrom('submissions')
        .select(['status', 'updated_at'])
        .where('id', '=', ids['muller'] ?? '')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'new', updated_at: null });
      expect((await as(mara.token)('DELETE', `${url}/read`)).body).toEqual({
        id: ids['muller'],
        read: false,
      });
      expect(await unread(mara.token)).toBe(7);
      expect((await as(mara.token)('PUT', `${base('enquiry')}/sub_nope/read`)).status).toBe(404);
    });

    it('bulk read and unread; marks follow spam moves and go with a deleted submission or a revoked token', async () => {
      const bulk = (token: string, body: object) => as(token)('POST', `${base('enquiry')}/bulk`, body);
      const some = [ids['elodie'], ids['ilkay'], ids['isik']];
      expect((await bulk(mara.token, { action: 'read', ids: some })).body).toEqual({ count: 3 });
      expect(await unread(mara.token)).toBe(4);
      expect((await bulk(mara.token, { action: 'unread', ids: [ids['isik']] })).body).toEqual({ count: 1 });
      expect(await unread(mara.token)).toBe(5);
      // To spam and back: the inbox has one fewer, and so has the count of Mara's read ones in it.
      expect((await bulk(bo.token, { action: 'spam', ids: [ids['elodie']] })).body.count).toBe(1);
      expect(await unread(mara.token)).toBe(5);
      expect(await unread(bo.token)).toBe(6);
      expect((await bulk(bo.token, { action: 'not_spam', ids: [ids['elodie']] })).body.count).toBe(1);
      expect(await unread(mara.token)).toBe(5);
      // Read marks are no change to record.
      const log = await t.store.db
        .selectFrom('activity_log')
        .select('details')
        .where('subject', '=', 'enquiry')
        .execute();
      expect(JSON.stringify(log.map((l) => l.details))).not.toMatch(/"read"|"unread"/);
      const marks = async (reader: string) =>
        (
          await t.store.db
            .selectFrom('submission_reads')
            .select('submission_id')
            .where('reader_id', '=', reader)
            .execute()
        ).length;
      const temp = await storePerson(t.store, SPACE, 'Temp', null, ['forms.read']);
      await bulk(temp.token, { action: 'read', ids: [ids['ilkay']] });
      expect(await marks(temp.id)).toBe(1);
      expect((await admin('DELETE', `${M}/tokens/${temp.id}`)).status).toBe(200);
      expect(await marks(temp.id)).toBe(0);
      // A deleted submission takes its marks with it.
      const deletable = await submit('enquiry', { name: 'Short-lived', topic: 'sales' });
      expect(deletable.status).toBe(200);
      const latest = (await admin('GET', `${base('enquiry')}?limit=1`)).body.items[0].id as string;
      await bulk(mara.token, { action: 'read', ids: [latest] });
      expect((await as(bo.token)('DELETE', `${base('enquiry')}/${latest}`)).status).toBe(200);
      const left = await t.store.db
        .selectFrom('submission_reads')
        .select('submission_id')
        .where('submission_id', '=', latest)
        .execute();
      expect(left).toEqual([]);
      expect(await unread(mara.token)).toBe(5);
    });
  });

  describe('filters, sort and totals', () => {
    const list = async (query: string) => {
      const res = await admin('GET', `${base('enquiry')}?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body as {
        items: { id: string; createdAt: string }[];
        total: number;
        nextCursor: string | null;
      };
    };

    it('filters by an option (with status and dates), counts every match, sorts either way', async () => {
      const everything = await list('limit=200');
      const press = await list('field[topic]=press');
      expect(press.total).toBe(3);
      expect(press.items.map((i) => i.id)).toEqual([ids['isik'], ids['elodie'], ids['muller']]);
      const oldest = await list('field[topic]=press&sort=createdAt');
      expect(oldest.items.map((i) => i.id)).toEqual([ids['muller'], ids['elodie'], ids['isik']]);
      // Every path to the total agrees with counting the rows, the counters kept through a bulk status change.
      const done = await admin('POST', `${base('enquiry')}/bulk`, {
        action: 'status',
        status: 'done',
        filter: { 'field[topic]': 'sales' },
      });
      expect(done.body.count).toBe(2);
      const cases = [
        '',
        'status=new',
        'field[topic]=press&status=new',
        'field[topic]=sales',
        'field[topic]=sales&status=done',
        'field[topic]=sales&status=new',
        `field[topic]=press&from=${everything.items[3]?.createdAt}`,
        'field[newsletter]=true',
        'field[guests]=2',
        'q=a',
        'field[topic]=press&q=muller',
        'assignee=',
        'folder=spam',
      ];
      for (const query of cases) {
        const all = await list(`${query}&limit=200`);
        expect([query, all.total]).toEqual([query, all.items.length]);
      }
      expect((await list('field[newsletter]=true')).items.map((i) => i.id)).toEqual([ids['zoe']]);
    });

    it('pages with a cursor in either order; a cursor of the other order is refused', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(
          `sort=createdAt&limit=2&field[topic]=press${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        seen.push(...page.items.map((i) => i.id));
        expect(page.total).toBe(3);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual([ids['muller'], ids['elodie'], ids['isik']]);
      const newest = await list('limit=2');
      const wrong = await admin('GET', `${base('enquiry')}?sort=createdAt&cursor=${newest.nextCursor}`);
      expect([wrong.status, wrong.body.error.details.parameter]).toEqual([400, 'cursor']);
    });

    it.each([
      ['MÜLLER', 'muller'],
      ['muller', 'muller'],
      ['ZOË', 'zoe'],
      ['zoe', 'zoe'],
      ['ELODIE FEVRE', 'elodie'],
      ['oeuvre', 'elodie'],
      ['İLKAY', 'ilkay'],
      ['sahin', 'ilkay'],
      ['istanbul', 'ilkay'],
      ['ISIK', 'isik'],
      ['ışık', 'isik'],
      ['ΠΑΠΑΔΌΠΟΥΛΟΣ', 'giorgos'],
      ['γιωργος', 'giorgos'],
      ['STRASSE', 'strasse'],
      ['grusse', 'strasse'],
    ])('search %s finds %s (case, accents and special letters folded)', async (q, who) => {
      const found = await list(`q=${encodeURIComponent(q)}`);
      expect(found.items.map((i) => i.id)).toEqual([ids[who]]);
      expect(found.total).toBe(1);
    });

    it('a submission stored before gets its search copy and options from the backfill', async () => {
      await t.store.db
        .insertInto('submissions')
        .values({
          id: 'sub_before0027',
          space_id: SPACE,
          form_key: 'enquiry',
          folder: 'inbox',
          values: JSON.stringify({ name: 'Renée Ölmez', topic: 'press' }),
          page: null,
          locale: 'en',
          user_agent: null,
          consent: '{}',
          unique_key: null,
          created_at: '2020-01-01T00:00:00.000Z',
          delete_after: '2099-01-01T00:00:00.000Z',
        })
        .execute();
      expect((await list('q=olmez')).items).toEqual([]);
      await t.store.db.transaction().execute((tx) => INBOX_SEARCH_REINDEX.run(tx, t.store.dialect));
      expect((await list('q=RENEE')).items.map((i) => i.id)).toEqual(['sub_before0027']);
      expect((await list('field[topic]=press&sort=createdAt')).items[0]?.id).toBe('sub_before0027');
      expect((await admin('DELETE', `${base('enquiry')}/sub_before0027`)).status).toBe(200);
    });
  });

  describe('exports in words', () => {
    const download = (query: string) =>
      t.app.inject({
        method: 'GET',
        url: `${base('enquiry')}/export?${query}`,
        headers: { authorization: `Bearer ${TOKENS.management}` },
      });

    it('CSV: headed by labels, options as labels, times in the space zone as spreadsheets read them', async () => {
      const res = await download('field[topic]=press');
      expect(res.statusCode).toBe(200);
      const { header, rows } = readCsv(res.body);
      expect(header).toEqual([
        'ID',
        'Received (Europe/Berlin)',
        'Folder',
        'Status',
        'Assigned to',
        'Page',
        'Language',
        'Name',
        'Email',
        'Topic',
        'Guests',
        'Newsletter',
        'Message',
      ]);
      const muller = rows.find((r) => r['ID'] === ids['muller']);
      expect(muller).toMatchObject({ Topic: 'Press enquiry', Folder: 'Inbox', Status: 'New', Guests: '2' });
      // 2026-03-15T12:00Z and on is 13:00 in Berlin: wall-clock time, no T, no zone, no milliseconds.
      expect(muller?.['Received (Europe/Berlin)']).toMatch(/^2026-03-15 13:00:0\d$/);
      const german = await download('lang=de&field[topic]=press');
      const de = readCsv(german.body);
      expect(de.header.slice(0, 2)).toEqual(['ID', 'Eingegangen (Europe/Berlin)']);
      expect(de.header).toContain('Thema');
      expect(de.rows.find((r) => r['ID'] === ids['muller'])?.['Thema']).toBe('Presseanfrage');
      const keys = await download('header=keys&field[topic]=press');
      expect(readCsv(keys.body).header.slice(0, 2)).toEqual(['id', 'createdAt']);
      expect((await download('lang=xx')).statusCode).toBe(400);
    });

    it('XLSX: streamed, opened with exceljs: labels, dates as dates, the assigned person by name', async () => {
      const res = await download('format=xlsx');
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(String(res.headers['content-disposition'])).toMatch(
        /enquiry-submissions-\d{4}-\d{2}-\d{2}\.xlsx/,
      );
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const header = (sheet?.getRow(1).values as unknown[]).slice(1);
      expect(header.slice(0, 2)).toEqual(['ID', 'Received (Europe/Berlin)']);
      const rows = (sheet?.getSheetValues() ?? []).slice(2) as unknown[][];
      expect(rows).toHaveLength(7);
      const zoe = rows.find((r) => r[1] === ids['zoe']);
      // A real date: the Berlin wall-clock time written as the cell's value.
      expect(zoe?.[2]).toBeInstanceOf(Date);
      expect((zoe?.[2] as Date).toISOString()).toMatch(/^2026-03-15T13:00:0\d/);
      expect(zoe?.[5]).toBe('Mara Rossi');
      expect(zoe?.[10]).toBe('Sales');
      expect(zoe?.[12]).toBe('Yes');
    });
  });
});
