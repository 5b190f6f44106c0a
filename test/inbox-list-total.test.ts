import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ListOrder, ListPosition } from '../src/forms/inbox/cursor.js';
import { parseInboxFilter } from '../src/forms/inbox/filter.js';
import { listPage } from '../src/forms/inbox/list-repo.js';
import { rarestFirst } from '../src/forms/inbox/option-range-repo.js';
import { foldForSearch, searchTextOf } from '../src/lib/search-fold.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';
import { storeSubmission } from './helpers/submissions.js';

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
  { name: 'Zoë Çelik', note: 'blue moon', qty: 3, ok: true, color: 'red' },
  { name: 'Zoë Çelik-Smith', note: 'blue sky', qty: 1.5, ok: false, color: 'red' },
  { name: 'zoë çelik', note: 'red moon', qty: 3, ok: true, color: 'green' },
  { name: 'Ada', note: 'blue moon', tags: ['alpha', 'beta'], ok: true, color: 'red' },
  { name: 'Zoë Çelik', note: 'green', tags: ['beta'], qty: 1.5, color: 'red' },
  { name: 'Grace', note: 'blue', tags: ['alpha'], ok: false, color: 'green' },
  { name: 'Zoë Çelik', note: 'blue blue', qty: 3, ok: true, color: 'red' },
  { name: 'Linus', note: 'moonlight blue', ok: true, tags: ['alpha'], color: 'red' },
  { name: 'Zoë Çelik', note: 'blue', tags: ['alpha'], ok: true, color: 'red' },
  { name: 'Ken', note: 'Blue', qty: 7, tags: ['alpha', 'beta'], ok: true, color: 'red' },
  { name: 'Mo', note: 'grey', tags: ['alpha'], ok: true, color: 'red' },
  { name: 'Ida', note: 'grey', tags: ['alpha'], ok: true, color: 'blue' },
];

/** The form's choice fields: filters on them read `submission_options` when the list is told they are choices. */
const CHOICE_FIELDS = [
  { key: 'tags', type: 'checkboxes' },
  { key: 'color', type: 'select' },
  { key: 'ok', type: 'checkbox' },
];
const CHOICE_KEYS = new Set(CHOICE_FIELDS.map((f) => f.key));

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
      await storeSubmission(
        env.store.db,
        { id: row.id, spaceId: SPACE, form: FORM, values, createdAt: row.createdAt },
        CHOICE_FIELDS,
      );
    }
  });
  afterAll(async () => env?.close());

  /** Every page of the list, `limit` at a time, following the cursor; with the first page's total. */
  async function walk(
    query: Record<string, string>,
    order: ListOrder,
    limit: number,
    choiceKeys: ReadonlySet<string> = new Set(),
    walkLimit?: number,
  ) {
    const ids: string[] = [];
    let after: ListPosition | null = null;
    let first: { total: number; totalExact: boolean } | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const page = await listPage(env.store, scope, {
        filter: parseInboxFilter(query),
        choiceKeys,
        order,
        limit,
        after,
        reader: 'tok_reader',
        countLimit: COUNT_LIMIT,
        ...(walkLimit === undefined ? {} : { walkLimit }),
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
    // Past the count limit the page is looked for in the list's first rows, then among every match: a walk of 1 or
    // 3 rows sends most pages down the second way.
    for (const order of ['newest', 'oldest'] as const)
      for (const [limit, walkLimit] of [[2], [3], [50], [2, 1], [2, 3], [3, 3]] as const) {
        const got = await walk(query, order, limit, new Set(), walkLimit);
        expect(got.ids).toEqual(expected(query, order));
        expect(got.totalExact).toBe(want.length <= COUNT_LIMIT);
        expect(got.total).toBe(Math.min(want.length, COUNT_LIMIT));
      }
  });

  // Choice fields only: the page and total come from the options' index, the rarest option driving.
  const optionFilters: Record<string, string>[] = [
    { 'field[color]': 'red', 'field[tags]': 'alpha' }, // 6: past the limit
    { 'field[tags]': 'alpha', 'field[color]': 'red' },
    { 'field[color]': 'green', 'field[tags]': 'alpha' }, // 1
    { 'field[color]': 'red', 'field[ok]': 'true', 'field[tags]': 'beta' }, // 2
    { 'field[color]': 'red', 'field[tags]': 'gamma' },
    { 'field[color]': 'red' }, // one option: counted exactly from the tallies past the limit
    { 'field[tags]': 'alpha', 'field[ok]': 'true' },
    // Blue (1 row) drives; ok=true (9 rows) is more than 8 times as common, so it is probed, not merged.
    { 'field[color]': 'blue', 'field[ok]': 'true' },
    // Blue drives, tags=alpha (8) merged, ok=true (9) probed: both ways in one list.
    { 'field[ok]': 'true', 'field[color]': 'blue', 'field[tags]': 'alpha' },
    { 'field[ok]': 'false', 'field[color]': 'blue', 'field[tags]': 'alpha' },
  ];

  it.each(optionFilters)('%o as options: total, exactness and every page', async (query) => {
    const want = expected(query, 'newest');
    const single = Object.keys(query).length === 1;
    for (const order of ['newest', 'oldest'] as const)
      for (const limit of [2, 3, 50]) {
        const got = await walk(query, order, limit, CHOICE_KEYS);
        expect(got.ids).toEqual(expected(query, order));
        expect(got.totalExact).toBe(single || want.length <= COUNT_LIMIT);
        expect(got.total).toBe(single ? want.length : Math.min(want.length, COUNT_LIMIT));
      }
  });

  it('several options: the rarest drives, options of about as many rows are merged, far commoner ones probed', async () => {
    const split = async (query: Record<string, string>) => {
      const options = parseInboxFilter(query).fields;
      const drive = await rarestFirst(env.store.db, scope, 'inbox', options);
      return {
        drive: drive.drive.value,
        merged: drive.merged.map((o) => o.value),
        probed: drive.probed.map((o) => o.value),
      };
    };
    expect(await split({ 'field[ok]': 'true', 'field[color]': 'blue', 'field[tags]': 'alpha' })).toEqual({
      drive: 'blue',
      merged: ['alpha'],
      probed: ['true'],
    });
    expect(await split({ 'field[tags]': 'alpha', 'field[color]': 'green' })).toEqual({
      drive: 'green',
      merged: ['alpha'],
      probed: [],
    });
  });

  it('the model crosses the count limit both ways', () => {
    const optionSizes = optionFilters.map((q) => expected(q, 'newest').length);
    expect(optionSizes.some((n) => n > COUNT_LIMIT)).toBe(true);
    expect(optionSizes.some((n) => n > 0 && n <= COUNT_LIMIT)).toBe(true);
    expect(expected({ 'field[color]': 'red' }, 'newest').length).toBeGreaterThan(COUNT_LIMIT);
    const sizes = filters.map((q) => expected(q, 'newest').length);
    expect(sizes.some((n) => n > COUNT_LIMIT)).toBe(true);
    expect(sizes.some((n) => n > 0 && n <= COUNT_LIMIT)).toBe(true);
    expect(expected({ 'field[name]': 'Zoë Çelik' }, 'newest')).toHaveLength(4);
    expect(expected({ 'field[ok]': 'true' }, 'newest')).toHaveLength(9);
  });

  it('filters the store counts or reads from one index range stay exact past the limit', async () => {
    const first = (query: Record<string, string>) =>
      walk(query, 'newest', 50, CHOICE_KEYS).then(({ total, totalExact }) => ({ total, totalExact }));
    expect(await first({})).toEqual({ total: ROWS.length, totalExact: true });
    // Two rows share the first second.
    expect(await first({ from: '2026-01-01T00:00:01Z' })).toEqual({
      total: ROWS.length - 2,
      totalExact: true,
    });
    expect(await first({ 'field[color]': 'red' })).toEqual({ total: 9, totalExact: true });
  });
});
