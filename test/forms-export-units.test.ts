import { once } from 'node:events';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellOf, planColumns, submittedFieldKeys } from '../src/forms/export/columns.js';
import { csvField, csvRecord, neutralizeFormula, UTF8_BOM } from '../src/forms/export/csv.js';
import {
  csvHeader,
  csvLine,
  type ExportLayout,
  type ExportRow,
  ndjsonLine,
} from '../src/forms/export/formats.js';
import { EXPORT_WORDS } from '../src/forms/export/labels.js';
import type { FieldColumn } from '../src/forms/export/columns.js';

/** The layout of `header=keys`: keys and values as stored. */
const keys = (columns: FieldColumn[]): ExportLayout => ({
  header: 'keys',
  columns,
  labels: new Map(),
  words: EXPORT_WORDS.en,
  timeZone: 'UTC',
  people: new Map(),
});
import { RunningExports } from '../src/forms/export/running-exports.js';
import { parseCsv } from './helpers/csv.js';

describe('CSV cells (RFC 4180, OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+cmd', "'+cmd"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['crlf\r\nin', '"crlf\r\nin"'],
    ['x=1', 'x=1'],
    [' =1', ' =1'],
  ])('%j is written %j', (text, written) => {
    expect(csvField(text)).toBe(written);
  });

  it('writes numbers as literals: a negative number is not a formula', () => {
    expect([csvField(-5), csvField(3.25), csvField(0), csvField(Number.NaN)]).toEqual([
      '-5',
      '3.25',
      '0',
      '',
    ]);
  });

  it('ends records with CRLF', () => {
    expect(csvRecord(['a', 1, 'b c'])).toBe('a,1,b c\r\n');
  });

  it('round-trips any text through a strict RFC 4180 reader, neutralised and nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 6 })),
        (rows) => {
          const text = rows.map((r) => csvRecord(r)).join('');
          expect(parseCsv(text)).toEqual(rows.map((r) => r.map(neutralizeFormula)));
        },
      ),
    );
  });

  it('never lets a cell start a formula, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const [cell] = parseCsv(csvRecord([s]))[0] ?? [];
        expect(cell).toBeDefined();
        expect(/^[=+\-@\t\r]/.test(cell ?? '')).toBe(false);
      }),
    );
  });
});

describe('export columns', () => {
  it('takes submitted fields in definition order; headings, paragraphs and sections get none', () => {
    const doc = {
      fields: [
        { key: 'intro', type: 'heading' },
        { key: 'name', type: 'text' },
        { key: 'note', type: 'paragraph' },
        { key: 'part', type: 'section' },
        { key: 'tags', type: 'checkboxes' },
        { key: 7, type: 'text' },
        { type: 'text' },
        'junk',
        { key: 'future', type: 'signature' },
      ],
    };
    expect(submittedFieldKeys(doc)).toEqual(['name', 'tags', 'future']);
    expect([submittedFieldKeys(null), submittedFieldKeys({}), submittedFieldKeys([])]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('puts current fields first, then older ones newest first; row keys only without any definition', () => {
    const plan = (c: string[] | null, h: string[][], r: string[] = []) =>
      planColumns(c, h, r).map((col) => `${col.header}:${col.from}`);
    expect(
      plan(['email', 'fullName'], [['email', 'fullName'], ['email', 'name', 'phone'], ['fax']], ['x']),
    ).toEqual(['email:current', 'fullName:current', 'name:history', 'phone:history', 'fax:history']);
    expect(plan(null, [['b', 'a']], ['z'])).toEqual(['b:history', 'a:history']);
    expect(plan(null, [], ['z', 'y'])).toEqual(['z:rows', 'y:rows']);
    expect(plan([], [], ['z'])).toEqual([]);
  });

  it('gives a field named like a leading column a header of its own', () => {
    expect(planColumns(['status', 'id', 'name'], []).map((c) => c.header)).toEqual([
      'status (field)',
      'id (field)',
      'name',
    ]);
  });

  it.each([
    [['a', 'b'], 'a; b'],
    [true, 'true'],
    [false, 'false'],
    [42, 42],
    ['text', 'text'],
    [null, ''],
    [undefined, ''],
    [['fup_1234567890'], 'fup_1234567890'],
    [{ odd: 1 }, '{"odd":1}'],
  ])('a stored %j is the cell %j', (value, cell) => {
    expect(cellOf(value)).toEqual(cell);
  });
});

describe('export lines', () => {
  const row: ExportRow = {
    id: 'sub_1',
    createdAt: '2026-03-15T12:00:00.000Z',
    folder: 'inbox',
    status: 'new',
    assignee: null,
    assigneeId: null,
    page: '/contact',
    locale: 'en',
    values: { name: 'Ada', tags: ['a', 'b'], constructor: 'own' },
    consent: {},
  };

  it('starts the CSV with a BOM and the header', () => {
    const header = csvHeader(keys(planColumns(['name'], [])));
    expect(header.startsWith(UTF8_BOM)).toBe(true);
    expect(header.slice(1)).toBe('id,createdAt,folder,status,assignee,page,locale,name\r\n');
  });

  it('reads only own value keys (a field called toString is empty, not a function)', () => {
    const columns = planColumns(['name', 'tags', 'toString', 'constructor'], []);
    expect(csvLine(row, keys(columns))).toBe(
      'sub_1,2026-03-15T12:00:00.000Z,inbox,new,,/contact,en,Ada,a; b,,own\r\n',
    );
  });

  it('writes NDJSON as one object per line, values as stored', () => {
    const line = ndjsonLine({ ...row, values: { text: 'two\nlines\u2028' } });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1).includes('\n')).toBe(false);
    expect(JSON.parse(line)).toEqual({
      id: 'sub_1',
      createdAt: '2026-03-15T12:00:00.000Z',
      folder: 'inbox',
      status: 'new',
      assignee: null,
      page: '/contact',
      locale: 'en',
      values: { text: 'two\nlines\u2028' },
      consent: {},
    });
  });
});

describe('RunningExports (a bound on exports streaming at once per instance)', () => {
  it('refuses past the bound and gives a slot back when a body ends, fails or is abandoned', async () => {
    const running = new RunningExports(2);
    expect(running.tryAcquire()).toBe(true);
    expect(running.tryAcquire()).toBe(true);
    expect(running.tryAcquire()).toBe(false);

    const ended = Readable.from(['a', 'b'], { objectMode: false });
    running.releaseWhenClosed(ended);
    for await (const chunk of ended) expect(String(chunk)).toMatch(/a|b/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(running.count).toBe(1);

    expect(running.tryAcquire()).toBe(true);
    const failed = new Readable({ read() {} });
    running.releaseWhenClosed(failed);
    const failedClosed = new Promise((resolve) => failed.once('close', resolve));
    failed.on('error', () => {});
    failed.destroy(new Error('store went away'));
    await failedClosed;
    expect(running.count).toBe(1);

    const abandoned = new Readable({ read() {} });
    running.releaseWhenClosed(abandoned);
    abandoned.destroy();
    await once(abandoned, 'close');
    expect(running.count).toBe(0);
    running.release();
    expect(running.count).toBe(0);
  });
});
