import { sql, type SqlBool } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivity } from '../src/activity/activity-repo.js';
import { type ExportLog, prepareExport } from '../src/forms/export/export-submissions.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { insertSubmission } from '../src/forms/submission/submissions-repo.js';
import { newId } from '../src/lib/ids.js';
import { parseCsv } from './helpers/csv.js';
import { ENGINES } from './helpers/engines.js';
import { TOKENS } from './helpers/fixture.js';
import { type FormsApp, openFormsApp, putForms } from './helpers/forms.js';
import { storeScopedToken } from './helpers/tokens.js';

const SPACE = 'spc_test';
const mgt = { authorization: `Bearer ${TOKENS.management}` };
/** An export in keys (`header=keys`): the layout these tests check; test/inbox-team.test.ts checks the words. */
const exportUrl = (form: string, query = '') =>
  `/v1/spaces/${SPACE}/forms/${form}/submissions/export?${query === '' ? '' : `${query}&`}header=keys`;

/** Every field type of spec 2.10, the three that carry no value among them. */
const EVERY: FormDefinition = {
  key: 'every',
  name: 'Every field',
  fields: [
    { key: 'intro', type: 'heading', label: 'Hello' },
    { key: 'text', type: 'text', label: 'Text' },
    { key: 'textarea', type: 'textarea', label: 'Textarea' },
    { key: 'email', type: 'email', label: 'Email' },
    { key: 'tel', type: 'tel', label: 'Phone' },
    { key: 'url', type: 'url', label: 'URL' },
    { key: 'note', type: 'paragraph', label: 'Some words' },
    { key: 'number', type: 'number', label: 'Number' },
    { key: 'date', type: 'date', label: 'Date' },
    { key: 'time', type: 'time', label: 'Time' },
    { key: 'part', type: 'section', label: 'Part two' },
    { key: 'select', type: 'select', label: 'Select', options: [{ value: 'press', label: 'Press' }] },
    { key: 'radio', type: 'radio', label: 'Radio', list: 'colors' },
    {
      key: 'checkboxes',
      type: 'checkboxes',
      label: 'Checkboxes',
      options: [
        { value: 'a', label: 'A' },
        { value: 'c', label: 'C' },
      ],
    },
    { key: 'checkbox', type: 'checkbox', label: 'Checkbox' },
    {
      key: 'consent',
      type: 'consent',
      label: 'I agree',
      link: { label: 'Privacy', url: 'https://x.example/p' },
    },
    { key: 'hidden', type: 'hidden', defaultValue: 'none' },
    { key: 'file', type: 'file', label: 'Files', maxFiles: 2 },
    // A field named like a leading column keeps a header of its own.
    { key: 'status', type: 'text', label: 'Your status' },
  ],
  settings: { turnstileSiteKey: 'sk', turnstileSecret: 'shh' },
};
const EVERY_FIELD_KEYS = EVERY.fields
  .filter((f) => !['heading', 'paragraph', 'section'].includes(f.type))
  .map((f) => (f.key === 'status' ? 'status (field)' : f.key));

const text = (key: string, label = key) => ({ key, type: 'text' as const, label });
const form = (key: string, fields: FormDefinition['fields']): FormDefinition => ({
  key,
  name: key,
  fields,
  settings: {},
});

const LEADING = ['id', 'createdAt', 'folder', 'status', 'assignee', 'page', 'locale'];

/** Parses an export: the BOM, then strict RFC 4180; answers the header and the rows keyed by it. */
function readCsv(body: string): { header: string[]; rows: Record<string, string>[] } {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header = [], ...records] = parseCsv(body.slice(1));
  return {
    header,
    rows: records.map((r) => {
      expect(r.length).toBe(header.length);
      return Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']));
    }),
  };
}

describe.each(ENGINES)('exporting submissions on %s', (engine) => {
  let t: FormsApp;
  let at = Date.parse('2026-03-10T10:00:00.000Z');
  const ids: Record<string, string> = {};

  /** Stores a submission as the submit path does, a second after the previous one. */
  async function stored(
    formKey: string,
    values: Record<string, unknown>,
    extra: {
      name?: string;
      folder?: 'inbox' | 'spam';
      status?: 'new' | 'read' | 'done' | 'archived';
      assignee?: string;
      consent?: Record<string, unknown>;
      createdAt?: string;
    } = {},
  ): Promise<string> {
    const id = newId('sub');
    at += 1000;
    await insertSubmission(
      t.store.db,
      {
        id,
        spaceId: SPACE,
        form: formKey,
        folder: extra.folder ?? 'inbox',
        values,
        page: '/contact',
        locale: 'en',
        userAgent: 'test',
        consent: (extra.consent ?? {}) as Record<string, { label: string }>,
        uniqueKey: null,
        createdAt: extra.createdAt ?? new Date(at).toISOString(),
        deleteAfter: '2030-01-01T00:00:00.000Z',
        // The fields it was made to: its chosen options are stored beside it, as submit does.
      },
      formKey === 'every' ? EVERY.fields : [],
    );
    if (extra.status !== undefined || extra.assignee !== undefined) {
      await t.store.db
        .updateTable('submissions')
        .set({ status: extra.status ?? 'new', assignee: extra.assignee ?? null })
        .where('id', '=', id)
        .execute();
    }
    if (extra.name !== undefined) ids[extra.name] = id;
    return id;
  }

  const get = (url: string, headers: Record<string, string> = mgt) =>
    t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await openFormsApp(engine);
    t.clock.current = new Date('2026-03-15T12:00:00.000Z');
    await putForms(t, SPACE, [EVERY]);
    await stored(
      'every',
      {
        text: 'Ada Lovelace',
        textarea: 'Line one\r\nLine "two", with a comma',
        email: 'ada@example.com',
        tel: '+44 20 7946 0958',
        url: 'https://example.com/?a=1,b=2',
        number: 42.5,
        date: '2026-03-01',
        time: '09:30',
        select: 'press',
        radio: 'red',
        checkboxes: ['a', 'c'],
        checkbox: true,
        consent: true,
        hidden: 'utm-spring',
        file: ['fup_AAAAAAAAAAAA', 'fup_BBBBBBBBBBBB'],
        status: 'busy',
      },
      {
        name: 'full',
        status: 'done',
        assignee: 'Grace',
        consent: { consent: { label: 'I agree', link: { label: 'Privacy', url: 'https://x.example/p' } } },
      },
    );
    await stored('every', { text: 'Bob', number: -3, checkbox: false, checkboxes: [] }, { name: 'sparse' });
    await stored(
      'every',
      { text: '=HYPERLINK("http://x","y")', textarea: '+cmd', email: '-1+1' },
      { name: 'evil1' },
    );
    await stored('every', { text: '@SUM(A1)', textarea: '\tx', email: '\rx' }, { name: 'evil2' });
    await stored('every', { text: 'spam here' }, { name: 'spam', folder: 'spam' });

    // A field renamed (name → fullName) and one removed (phone) across published versions.
    await putForms(t, SPACE, [form('renamed', [text('email'), text('name'), text('phone')])]);
    await stored('renamed', { email: 'old@example.com', name: 'Old Name', phone: '123' }, { name: 'old' });
    await putForms(t, SPACE, [form('renamed', [text('email'), text('fullName')])]);
    await stored('renamed', { email: 'new@example.com', fullName: 'New Name' }, { name: 'new' });

    // A form deleted through the API after it stored something.
    await putForms(t, SPACE, [form('gone', [text('b'), text('a')])]);
    await stored('gone', { a: '1', b: '2' });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/spaces/${SPACE}/forms/gone`,
      headers: mgt,
    });
    expect(deleted.statusCode).toBe(200);

    // Submissions whose form has no definition left anywhere (deleted, and its history pruned).
    await stored('orphan', { z: 'last', y: 'first' });
    await stored('orphan', { x: 'new key' });
  });
  afterAll(async () => t.close());

  it('streams CSV with a BOM, RFC 4180 records, the download headers and no caching', async () => {
    const res = await get(exportUrl('every', 'format=csv'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="every-submissions-2026-03-15\.csv"/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.body.endsWith('\r\n')).toBe(true);
  });

  it('has the leading columns, then the fields in definition order (submitted types only), keyed', async () => {
    const { header } = readCsv((await get(exportUrl('every'))).body);
    expect(header).toEqual([...LEADING, ...EVERY_FIELD_KEYS]);
  });

  it('writes every field type: lists with "; ", booleans, numbers, files as upload ids', async () => {
    const { rows } = readCsv((await get(exportUrl('every'))).body);
    const full = rows.find((r) => r['id'] === ids['full']);
    expect(full).toEqual({
      id: ids['full'],
      createdAt: expect.stringMatching(/^2026-03-10T10:00:01/),
      folder: 'inbox',
      status: 'done',
      assignee: 'Grace',
      page: '/contact',
      locale: 'en',
      text: 'Ada Lovelace',
      textarea: 'Line one\r\nLine "two", with a comma',
      email: 'ada@example.com',
      // OWASP's rule has no exception for phone numbers: a leading + is a formula in Excel.
      tel: "'+44 20 7946 0958",
      url: 'https://example.com/?a=1,b=2',
      number: '42.5',
      date: '2026-03-01',
      time: '09:30',
      select: 'press',
      radio: 'red',
      checkboxes: 'a; c',
      checkbox: 'true',
      consent: 'true',
      hidden: 'utm-spring',
      file: 'fup_AAAAAAAAAAAA; fup_BBBBBBBBBBBB',
      'status (field)': 'busy',
    });
    const sparse = rows.find((r) => r['id'] === ids['sparse']);
    expect([sparse?.['number'], sparse?.['checkbox'], sparse?.['checkboxes'], sparse?.['url']]).toEqual([
      '-3',
      'false',
      '',
      '',
    ]);
  });

  it('makes formula cells inert (OWASP CSV injection)', async () => {
    const { rows } = readCsv((await get(exportUrl('every'))).body);
    const one = rows.find((r) => r['id'] === ids['evil1']);
    const two = rows.find((r) => r['id'] === ids['evil2']);
    expect([one?.['text'], one?.['textarea'], one?.['email']]).toEqual([
      `'=HYPERLINK("http://x","y")`,
      "'+cmd",
      "'-1+1",
    ]);
    expect([two?.['text'], two?.['textarea'], two?.['email']]).toEqual(["'@SUM(A1)", "'\tx", "'\rx"]);
    // Only numbers (written as numbers, -3 here) may start with a minus.
    for (const row of rows)
      for (const cell of Object.values(row))
        if (!/^-\d+(\.\d+)?$/.test(cell)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("exports the inbox, oldest first, by default (the list's default folder)", async () => {
    const { rows } = readCsv((await get(exportUrl('every'))).body);
    expect(rows.map((r) => r['id'])).toEqual([ids['full'], ids['sparse'], ids['evil1'], ids['evil2']]);
  });

  it.each([
    ['folder=spam', ['spam']],
    ['status=done', ['full']],
    ['status=new,read', ['sparse', 'evil1', 'evil2']],
    ['assignee=', ['sparse', 'evil1', 'evil2']],
    ['q=lovelace', ['full']],
    ['field[select]=press', ['full']],
    ['field[checkboxes]=c', ['full']],
    ['from=2026-03-10T10:00:02Z&to=2026-03-10T10:00:04Z', ['sparse', 'evil1']],
    ['folder=spam&q=nothing-like-this', []],
  ])('applies the list filters: %s', async (query, names) => {
    const csv = readCsv((await get(exportUrl('every', `format=csv&${query}`))).body);
    expect(csv.rows.map((r) => r['id'])).toEqual(names.map((n) => ids[n]));
    const ndjson = (await get(exportUrl('every', `${query}&format=ndjson`))).body;
    const lines = ndjson === '' ? [] : ndjson.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(names.map((n) => ids[n]));
  });

  it('refuses parameters that are neither a filter nor format (400, before any byte)', async () => {
    for (const query of [
      'limit=5',
      'cursor=abc',
      'format=csv&format=ndjson',
      'status=unread',
      'folder=all',
    ]) {
      const res = await get(exportUrl('every', query));
      expect([query, res.statusCode, res.json().error.code]).toEqual([query, 400, 'invalid_query']);
    }
  });

  it('streams NDJSON: one object per line, values and consent as stored', async () => {
    const res = await get(exportUrl('every', 'format=ndjson'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['content-disposition']).toMatch(/filename="every-submissions-2026-03-15\.ndjson"/);
    const lines = res.body.split('\n');
    expect(lines.pop()).toBe('');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects).toHaveLength(4);
    expect(objects[0]).toEqual({
      id: ids['full'],
      createdAt: expect.any(String),
      folder: 'inbox',
      status: 'done',
      assignee: 'Grace',
      page: '/contact',
      locale: 'en',
      values: expect.objectContaining({
        textarea: 'Line one\r\nLine "two", with a comma',
        number: 42.5,
        checkbox: true,
        checkboxes: ['a', 'c'],
        file: ['fup_AAAAAAAAAAAA', 'fup_BBBBBBBBBBBB'],
      }),
      consent: { consent: { label: 'I agree', link: { label: 'Privacy', url: 'https://x.example/p' } } },
    });
    // Not neutralised: NDJSON is read by programs, which do not evaluate formulas.
    expect((objects[2]?.['values'] as Record<string, unknown>)['text']).toBe('=HYPERLINK("http://x","y")');
  });

  it('still exports a renamed field and a removed one from older published versions', async () => {
    const { header, rows } = readCsv((await get(exportUrl('renamed'))).body);
    expect(header).toEqual([...LEADING, 'email', 'fullName', 'name', 'phone']);
    expect(rows.map((r) => [r['email'], r['fullName'], r['name'], r['phone']])).toEqual([
      ['old@example.com', '', 'Old Name', '123'],
      ['new@example.com', 'New Name', '', ''],
    ]);
  });

  it('exports a deleted form from its published history', async () => {
    const res = await get(exportUrl('gone'));
    expect(res.statusCode).toBe(200);
    const { header, rows } = readCsv(res.body);
    expect(header).toEqual([...LEADING, 'b', 'a']);
    expect(rows.map((r) => [r['b'], r['a']])).toEqual([['2', '1']]);
  });

  it('falls back to the keys in the rows when no definition is left at all', async () => {
    const { header, rows } = readCsv((await get(exportUrl('orphan'))).body);
    // In key order: jsonb keeps no order of its own.
    expect(header).toEqual([...LEADING, 'x', 'y', 'z']);
    expect(rows.map((r) => [r['x'], r['y'], r['z']])).toEqual([
      ['', 'first', 'last'],
      ['new key', '', ''],
    ]);
  });

  it('exports just the header for a form without submissions', async () => {
    await putForms(t, SPACE, [form('empty', [text('only')])]);
    const res = await get(exportUrl('empty'));
    expect(res.body).toBe('\uFEFFid,createdAt,folder,status,assignee,page,locale,only\r\n');
    expect((await get(exportUrl('empty', 'format=ndjson'))).body).toBe('');
  });

  it('records each export in the activity log with its format and count, never values', async () => {
    // The record an export adds: the one not there before. The log orders by time, and earlier tests' exports may
    // share the millisecond (ties go by the random id), so the newest item is not always this export's.
    const exports = async () =>
      (await listActivity(t.store, SPACE, { limit: 200, before: null, action: 'submissions.exported' }))
        .items;
    const added = async (run: () => Promise<unknown>) => {
      const before = new Set((await exports()).map((i) => i.id));
      await run();
      return (await exports()).filter((i) => !before.has(i.id));
    };
    const renamed = await added(() => get(exportUrl('renamed', 'format=ndjson')));
    expect(renamed).toEqual([
      expect.objectContaining({
        action: 'submissions.exported',
        subject: 'renamed',
        details: { format: 'ndjson', count: 2 },
        actor: expect.stringMatching(/^tok_/),
      }),
    ]);
    // The count is of the filtered rows.
    const filtered = await added(() => get(exportUrl('every', 'status=done')));
    expect(filtered.map((i) => [i.subject, i.details])).toEqual([['every', { format: 'csv', count: 1 }]]);
  });

  it('is not taken for a submission id: the static segment wins, the routes under an id still answer', async () => {
    const res = await get(exportUrl('every'));
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const file = await get(
      `/v1/spaces/${SPACE}/forms/every/submissions/${ids['full']}/files/fup_AAAAAAAAAAAA`,
    );
    expect([file.statusCode, file.json().error.message]).toEqual([404, 'File not found.']);
  });

  it('needs a management token with forms.read', async () => {
    const value = await storeScopedToken(t.store, SPACE, ['content.write', 'forms.write']);
    const before = await listActivity(t.store, SPACE, {
      limit: 100,
      before: null,
      action: 'submissions.exported',
    });
    const denied = await get(exportUrl('every'), { authorization: `Bearer ${value}` });
    expect([denied.statusCode, denied.json().error.code]).toEqual([403, 'forbidden']);
    expect(denied.json().error.details.missingScopes).toEqual(['forms.read']);
    expect((await get(exportUrl('every'), {})).statusCode).toBe(401);
    expect((await get(exportUrl('every'), { authorization: `Bearer ${TOKENS.public}` })).statusCode).toBe(
      403,
    );
    const after = await listActivity(t.store, SPACE, {
      limit: 100,
      before: null,
      action: 'submissions.exported',
    });
    expect(after.items.length).toBe(before.items.length);
  });

  it('answers 404 for an unknown form and 400 for an unknown format, before any byte', async () => {
    const missing = await get(exportUrl('nope'));
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'not_found']);
    const bad = await get(exportUrl('every', 'format=pdf'));
    expect([bad.statusCode, bad.json().error.details.parameter]).toEqual([400, 'format']);
  });

  it('does not run (or record) an export for HEAD', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: exportUrl('every'), headers: mgt });
    expect(head.statusCode).toBe(404);
  });

  describe('the stream', () => {
    const quietLog = (): ExportLog & { errors: object[] } => {
      const errors: object[] = [];
      return { errors, error: (obj) => errors.push(obj), info: () => {} };
    };
    const readAll = async (stream: NodeJS.ReadableStream): Promise<string> => {
      let out = '';
      for await (const chunk of stream) out += String(chunk);
      return out;
    };

    it('pages by (createdAt, id): rows sharing a timestamp are sent once each across page edges', async () => {
      const same = '2026-03-12T08:00:00.000Z';
      const sent: string[] = [];
      for (let i = 0; i < 7; i++) sent.push(await stored('ties', { n: i }, { createdAt: same }));
      const prepared = await prepareExport({
        store: t.store,
        scope: { spaceId: SPACE, formKey: 'ties', narrow: (qb) => qb },
        format: 'ndjson',
        actor: 'test',
        log: quietLog(),
        pageSize: 2,
      });
      expect(prepared.count).toBe(7);
      const lines = (await readAll(prepared.stream)).trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([...sent].sort());
    });

    it('stops at the rows that matched when it began', async () => {
      const prepared = await prepareExport({
        store: t.store,
        scope: { spaceId: SPACE, formKey: 'renamed', narrow: (qb) => qb },
        format: 'ndjson',
        actor: 'test',
        log: quietLog(),
      });
      await stored('renamed', { email: 'later@example.com' });
      expect((await readAll(prepared.stream)).trim().split('\n')).toHaveLength(prepared.count);
    });

    it('a row query failing after the header ends the stream with an error and is logged', async () => {
      let queries = 0;
      const log = quietLog();
      // A form with a definition (its columns need no pass over the rows). Count and last row; the 3rd scoped query is the first to read rows (a page, or PostgreSQL's cursor).
      const prepared = await prepareExport({
        store: t.store,
        scope: {
          spaceId: SPACE,
          formKey: 'every',
          narrow: (qb) => (++queries === 3 ? qb.where(sql<SqlBool>`no_such_column = 1`) : qb),
        },
        format: 'csv',
        header: 'keys',
        actor: 'test',
        log,
        pageSize: 2,
      });
      let got = '';
      await expect(
        (async () => {
          for await (const chunk of prepared.stream) got += String(chunk);
        })(),
      ).rejects.toThrow(/no_such_column/);
      expect(got).toMatch(/^\uFEFFid,createdAt,/);
      expect(got.trim().split('\n')).toHaveLength(1);
      expect(log.errors).toEqual([expect.objectContaining({ form: 'every', format: 'csv', sent: 0 })]);
    });

    // Only where exports are paged: PostgreSQL reads the whole export through one cursor, with no later query.
    if (engine === 'sqlite')
      it('after the first rows, a failing page ends the stream with an error and is logged', async () => {
        let queries = 0;
        const log = quietLog();
        const prepared = await prepareExport({
          store: t.store,
          // Count and last row, a page of nothing (all 7 rows share a timestamp, so they are paged by id), the
          // first page of 2 by id; the 5th query, the next page, fails.
          scope: {
            spaceId: SPACE,
            formKey: 'ties',
            narrow: (qb) => (++queries === 5 ? qb.where(sql<SqlBool>`no_such_column = 1`) : qb),
          },
          format: 'ndjson',
          actor: 'test',
          log,
          pageSize: 2,
        });
        let got = '';
        await expect(
          (async () => {
            for await (const chunk of prepared.stream) got += String(chunk);
          })(),
        ).rejects.toThrow(/no_such_column/);
        expect(got.trim().split('\n')).toHaveLength(2);
        expect(log.errors).toEqual([expect.objectContaining({ form: 'ties', format: 'ndjson', sent: 2 })]);
      });
  });
});
