import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ListOrder, ListPosition } from '../src/forms/inbox/cursor.js';
import { parseInboxFilter } from '../src/forms/inbox/filter.js';
import { listPage } from '../src/forms/inbox/list-repo.js';
import { insertSubmission } from '../src/forms/submission/submissions-repo.js';
import { foldForSearch, searchTextOf } from '../src/lib/search-fold.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';

// The inbox list's total and pages when the filter is tested row by row (a search, a text answer, several answers):
// up to the count limit the total is exact and the page sorted from the matches; past it the total is the limit,
// flagged inexact, and the pages come in list order. Both checked against a model of the same rows in JavaScript,
// with a limit small enough to cross, through every page in both orders. A text answer is also looked up in the
// search index: it must still match exactly (case, whole value), and numbers and booleans, which the search copy
// writes differently or not at all, must still be found.

const SPACE = 'spc_test';
const FORM = 'list-total';
const scope = { spaceId: SPACE, formKey: FORM };
const COUNT_LIMIT = 5;

interface Row {
  id: string;
  createdAt: string;
  values: Record<string, unknown>;
}

const ROWS: Omit<Row, 'id' | 'createdAt'>['values'][] = [
  { name: 'Zoë Çelik', note: 'blue moon', qty: 3, ok: true },
  { name: 'Zoë Çelik-Smith', note: 'blue sky', qty: 1.5, ok: false },
  { name: 'zoë çelik', note: 'red moon', qty: 3, ok: true },
  { name: 'Ada', note: 'blue moon', tags: ['alpha', 'beta'], ok: true },
  { name: 'Zoë Çelik', note: 'green', tags: ['beta'], qty: 1.5 },
  { name: 'Grace', note: 'blue', tags: ['alpha'], ok: false },
  { name: 'Zoë Çelik', note: 'blue blue', qty: 3, ok: true },
  { name: 'Linus', note: 'moonlight blue', ok: true },
  { name: 'Zoë Çelik', note: 'blue', tags: ['alpha'], ok: true },
  { name: 'Ken', note: 'Blue', qty: 7 },
];

/** What the filter matches, by the filter's own definition (folded substring; exact text of a value or list item). */
function matches(values: Record<string, unknown>, query: Record<string, string>): boolean {
  for (const [name, want] of Object.entries(query)) {
    if (name === 'q') {
      if (!searchTextOf(values).includes(foldForSearch(want).trim())) return false;
      continue;
    }
    const key = /^field\[(.*)\]$/.exec(name)?.[1] ?? '';
    const v = values[key];
    const items = Array.isArray(v) ? v : [v];
    if (!items.some((x) => x !== undefined && x !== null && String(x) === want)) return false;
  }
  return true;
}

describe.each(ENGINES)('inbox totals and pages of filters tested row by row, on %s', (engine) => {
  let env: TestEnv;
  const rows: Row[] = [];
  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
    for (const [i, values] of ROWS.entries()) {
      const row = {
        id: `sub_total${String(i).padStart(4, '0')}`,
        // Two rows share each second: the id breaks the tie, as the list's order does.
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 1000).toISOString(),
        values,
      };
      rows.push(row);
      await insertSubmission(env.store.db, {
        id: row.id,
        spaceId: SPACE,
        form: FORM,
        folder: 'inbox',
        values,
        page: null,
        locale: 'en',
        userAgent: null,
        consent: {},
        uniqueKey: null,
        createdAt: row.createdAt,
        deleteAfter: '2099-01-01T00:00:00.000Z',
      });
    }
  });
  afterAll(async () => env?.close());

  /** Every page of the list, `limit` at a time, following the cursor; with the first page's total. */
  async function walk(query: Record<string, string>, order: ListOrder, limit: number) {
    const ids: string[] = [];
    let after: ListPosition | null = null;
    let first: { total: number; totalExact: boolean } | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const page = await listPage(env.store, scope, {
        filter: parseInboxFilter(query),
        choiceKeys: new Set(),
        order,
        limit,
        after,
        reader: 'tok_reader',
        countLimit: COUNT_LIMIT,
      });
      first ??= { total: page.total, totalExact: page.totalExact };
      // Every page counts the same.
      expect({ total: page.total, totalExact: page.totalExact }).toEqual(first);
      ids.push(...page.items.map((i) => i.id));
      if (page.last === null) break;
      after = page.last;
    }
    return { ids, ...(first ?? { total: -1, totalExact: false }) };
  }

  const expected = (query: Record<string, string>, order: ListOrder) => {
    const ids = rows
      .filter((r) => matches(r.values, query))
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
      )
      .map((r) => r.id);
    return order === 'newest' ? ids.reverse() : ids;
  };

  const filters: Record<string, string>[] = [
    { q: 'moon' }, // 4: under the limit
    { q: 'BLUE' }, // 8: past it
    { q: 'nobody' },
    { 'field[name]': 'Zoë Çelik' }, // 4 exactly, not the -Smith one nor the lower-case one
    { 'field[name]': 'zoë çelik' },
    { 'field[name]': 'Çelik' }, // a part of a value is no match
    { 'field[qty]': '3' },
    { 'field[qty]': '1.5' },
    { 'field[ok]': 'true' }, // 6: booleans are not in the search copy
    { 'field[ok]': 'false' },
    { 'field[tags]': 'alpha' },
    { 'field[tags]': 'alpha', q: 'blue' },
    { 'field[name]': 'Zoë Çelik', 'field[ok]': 'true' },
  ];

  it.each(filters)('%o: total, exactness and every page as the model has them', async (query) => {
    const want = expected(query, 'newest');
    // The model must cross the limit somewhere, or the test would not tell the two ways apart.
    for (const order of ['newest', 'oldest'] as const)
      for (const limit of [2, 3, 50]) {
        const got = await walk(query, order, limit);
        expect(got.ids).toEqual(expected(query, order));
        expect(got.totalExact).toBe(want.length <= COUNT_LIMIT);
        expect(got.total).toBe(Math.min(want.length, COUNT_LIMIT));
      }
  });

  it('the model crosses the count limit both ways', () => {
    const sizes = filters.map((q) => expected(q, 'newest').length);
    expect(sizes.some((n) => n > COUNT_LIMIT)).toBe(true);
    expect(sizes.some((n) => n > 0 && n <= COUNT_LIMIT)).toBe(true);
    expect(expected({ 'field[name]': 'Zoë Çelik' }, 'newest')).toHaveLength(4);
    expect(expected({ 'field[ok]': 'true' }, 'newest')).toHaveLength(6);
  });

  it('filters the store counts or reads from one index range stay exact past the limit', async () => {
    const page = await listPage(env.store, scope, {
      filter: parseInboxFilter({}),
      choiceKeys: new Set(),
      order: 'newest',
      limit: 2,
      after: null,
      reader: 'tok_reader',
      countLimit: COUNT_LIMIT,
    });
    expect(page.total).toBe(ROWS.length);
    expect(page.totalExact).toBe(true);
    const dated = await listPage(env.store, scope, {
      filter: parseInboxFilter({ from: '2026-01-01T00:00:01Z' }),
      choiceKeys: new Set(),
      order: 'newest',
      limit: 2,
      after: null,
      reader: 'tok_reader',
      countLimit: COUNT_LIMIT,
    });
    expect(dated.total).toBe(ROWS.length - 2);
    expect(dated.totalExact).toBe(true);
  });
});
