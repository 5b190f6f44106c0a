import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { countList, pageList } from '../src/delivery/list/list-query-repo.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { rowsLayout } from '../src/delivery/list/list-sources-repo.js';
import type { ListPlan } from '../src/delivery/list/plan.js';
import { utf8Compare } from '../src/delivery/list/order.js';
import { SORTED_RUN_MAX, SORTED_RUN_MIN } from '../src/delivery/list/rows/policy.js';
import { RowsIndex } from '../src/delivery/list/rows/rows-index.js';
import {
  answerable,
  compileSelection,
  countSelection,
  publishOrderPage,
  slotOrderPage,
  sortedBySlot,
  type Selection,
} from '../src/delivery/list/rows/selection.js';
import { sortedRun, sortedRunOf, sortedRunPage } from '../src/delivery/list/rows/sorted-runs.js';
import { type RowsTable, RowsTableBuilder } from '../src/delivery/list/rows/table.js';
import { isNumSlot } from '../src/delivery/list/slots.js';
import { bundle, COLORS, N, plainType, SIZES, SPACE, thingType } from './helpers/rows-fixture.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

// Lists answered from list rows in memory (LIST_INDEX_MB) must answer exactly what the SQL answers on the same
// rows: the same total, the same pages in the same order with the same cursor values, for every slot filter the
// API accepts, text compared in UTF-8 byte order, missing values outside every test and inside its negation.

describe('utf8Compare', () => {
  const sign = (n: number) => Math.sign(n);
  it('orders like the bytes of UTF-8 (SQLite BINARY, PostgreSQL "C"), surrogate pairs included', () => {
    const unit = fc.constantFrom('a', 'B', 'é', 'z', '\uE000', '\uFB00', '\uFFFD', '😀', '𝒳', '\u0800', '0');
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit })),
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit })),
        (a, b) => sign(utf8Compare(a, b)) === sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
      ),
      { numRuns: 2000 },
    );
  });

  it("orders a table's entry ids by their UTF-8 bytes, whichever comparison the table picked for them", () => {
    const unit = fc.constantFrom('a', 'B', '_', '0', 'z', '\uE000', '\uFFFD', '😀', '\u07FF');
    const id = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'B', '_', '0', 'z') }), fc.string({ unit }));
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 2, maxLength: 12 }), (ids) => {
        const builder = new RowsTableBuilder();
        builder.add(
          ids.map((entryId) => ({ cvFrom: 1, publishedAt: '2026-01-01', entryId, str: [], num: [] })),
        );
        const table = builder.finish(1);
        return ids.every((a) =>
          ids.every(
            (b) => sign(table.idOrder(a, b)) === sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
          ),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('sorted runs', () => {
  it("orders a value's rows by a number then entry id, missing values last, and stops at the table's share", () => {
    const builder = new RowsTableBuilder();
    // Ten rows: s1 is "a" for the even ones, "b" for the odd ones; n1 has ties and a gap; n2 and n3 are filled.
    builder.add(
      Array.from({ length: 10 }, (_, i) => ({
        cvFrom: 1,
        publishedAt: `2026-01-0${i}`,
        entryId: `ent_${String.fromCharCode(106 - i)}`,
        str: [i % 2 === 0 ? 'a' : 'b'],
        num: [i === 4 ? null : i % 3, i, -i],
      })),
    );
    const table = builder.finish(1);
    const rowsOf = (code: number) =>
      table.groups('s1')!.rows.filter((r) => table.strColumn('s1')!.codes[r] === code);
    const evens = rowsOf(0);
    const run = sortedRun(table, 's1', 0, 'n1', evens)!;
    // Rows 0 (0, ent_j), 2 (2, ent_h), 6 (0, ent_d), 8 (2, ent_b), 4 (none, ent_f).
    expect([...run.order].map((r) => [table.numColumn('n1')![r], table.entryId[r]])).toEqual([
      [0, 'ent_d'],
      [0, 'ent_j'],
      [2, 'ent_b'],
      [2, 'ent_h'],
      [Number.NaN, 'ent_f'],
    ]);
    expect(run.valued).toBe(4);
    expect(sortedRun(table, 's1', 0, 'n1', evens)).toBe(run);
    // Two runs per row of the table in all: 5 + 5 + 5 + 5 rows, then no more.
    expect(sortedRun(table, 's1', 1, 'n1', rowsOf(1))).not.toBeNull();
    expect(sortedRun(table, 's1', 0, 'n2', evens)).not.toBeNull();
    expect(sortedRun(table, 's1', 1, 'n2', rowsOf(1))).not.toBeNull();
    expect(sortedRun(table, 's1', 0, 'n3', evens)).toBeNull();
  });

  it('sorts a driving value of SORTED_RUN_MIN to SORTED_RUN_MAX rows, and no other', () => {
    const builder = new RowsTableBuilder();
    const n = SORTED_RUN_MAX + 1;
    builder.add(
      Array.from({ length: n }, (_, i) => ({
        cvFrom: 1,
        publishedAt: '2026-01-01',
        entryId: `ent_${i}`,
        str: ['a'],
        num: [i % 7],
      })),
    );
    const table = builder.finish(1);
    const selectionOf = (rows: number): Selection => ({
      runs: [table.groups('s1')!.rows.subarray(0, rows)],
      size: rows,
      driven: true,
      driver: { slot: 's1', code: 0 },
      tests: [],
    });
    expect(sortedRunOf(table, selectionOf(SORTED_RUN_MIN - 1), 'n1')).toBeNull();
    expect(sortedRunOf(table, selectionOf(n), 'n1')).toBeNull();
    expect(sortedRunOf(table, { ...selectionOf(SORTED_RUN_MAX), driver: null }, 'n1')).toBeNull();
    expect(sortedRunOf(table, selectionOf(SORTED_RUN_MAX), 'n1')?.order.length).toBe(SORTED_RUN_MAX);
  });
});

/** One filter of the query string, drawn from what the API accepts on the slotted fields. */
const filterArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte'),
      fc.subarray([...COLORS, 'nope', 'Z'], { minLength: 1, maxLength: 3 }),
    )
    .map(([op, vs]): [string, string] => [
      `filter[fields.color][${op}]`,
      op === 'in' || op === 'nin' ? vs.join(',') : (vs[0] ?? 'red'),
    ]),
  fc.constantFrom<[string, string]>(
    ['filter[fields.color][exists]', 'true'],
    ['filter[fields.color][exists]', 'false'],
    ['filter[fields.flag][eq]', 'true'],
    ['filter[fields.flag][ne]', 'true'],
    ['filter[fields.flag][exists]', 'false'],
    ['filter[fields.maker][eq]', 'ent_mk2'],
    ['filter[fields.maker][ne]', 'ent_mk1'],
    ['filter[fields.maker][in]', 'ent_mk1,ent_mk3'],
    ['filter[fields.score][exists]', 'false'],
    ['filter[fields.weight][exists]', 'true'],
  ),
  fc
    .tuple(
      fc.constantFrom('gt', 'gte', 'lt', 'lte', 'eq', 'ne'),
      fc.date({ min: new Date('2026-01-01'), max: new Date('2026-10-01'), noInvalidDate: true }),
    )
    .map(([op, d]): [string, string] => [`filter[fields.day][${op}]`, d.toISOString().slice(0, 10)]),
  fc
    .tuple(
      fc.constantFrom('gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'in', 'nin'),
      fc.integer({ min: -2, max: 42 }),
      fc.integer({ min: 0, max: 40 }),
    )
    .map(([op, a, b]): [string, string] => [
      `filter[fields.${a % 2 ? 'score' : 'weight'}][${op}]`,
      op === 'in' || op === 'nin' ? `${a},${b}` : a % 2 ? String(a) : String(a / 4 - 1),
    ]),
);

/** A driving filter: a positive eq/in on a string slot (what makes a list read list_rows). */
const driverArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc
    .subarray([...SIZES, 'xxl'], { minLength: 1, maxLength: 3 })
    .map((vs): [string, string] => [
      vs.length === 1 ? 'filter[fields.size][eq]' : 'filter[fields.size][in]',
      vs.join(','),
    ]),
  fc.constantFrom<[string, string]>(
    ['filter[fields.maker][eq]', 'ent_mk3'],
    ['filter[fields.color][in]', 'red,Red,ﬀlat,𝒳wing'],
  ),
);

const queryArb = fc.record({
  type: fc.constantFrom('thing', 'plain'),
  driver: fc.option(driverArb, { freq: 3 }),
  filters: fc.array(filterArb, { maxLength: 3 }),
  sort: fc.constantFrom(
    '-publishedAt',
    'publishedAt',
    'fields.score',
    '-fields.score',
    'fields.weight',
    '-fields.weight',
    'fields.day',
    '-fields.day',
  ),
  limit: fc.integer({ min: 1, max: 60 }),
  locale: fc.constantFrom('en', 'de'),
});

describe.each(ENGINES)('list rows in memory answer as SQL does (%s)', (engine) => {
  let env: TestEnv;
  let types: TypeMap;
  let cv: number;

  beforeAll(async () => {
    env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, bundle(), { baseDir: env.dataDir });
    const space = await env.store.db
      .selectFrom('spaces')
      .select('cv')
      .where('id', '=', SPACE)
      .executeTakeFirstOrThrow();
    cv = Number(space.cv);
    // Literals of the bundle's shape, checked by the import above.
    types = new Map([thingType, plainType].map((t) => [t.key, t as unknown as ContentTypeDef] as const));
  }, 60_000);
  afterAll(async () => env.close());

  /**
   * A table loaded for one generated list: the sorted runs a table keeps are bounded (policy.ts
   * `sortedRunsHold`), and a table shared by every run of the property filled that bound after enough distinct
   * driving values, so a later run's sortedRun answered null by design.
   */
  async function tableOf(plan: ListPlan): Promise<RowsTable> {
    const loaded = await new RowsIndex(env.store, 64 * 1024 * 1024).load(plan, 'test');
    if (!loaded) throw new Error('no table');
    return loaded;
  }

  it('counts and pages every generated selection like the SQL, cursor by cursor', async () => {
    let sortedRuns = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, async ({ type, driver, filters, sort, limit, locale }) => {
        const query: Record<string, string> = { type, sort, limit: String(limit) };
        for (const [k, v] of driver === null ? filters : [driver, ...filters]) query[k] = v;
        const q = parseListQuery(query, types, locale);
        const plan = listPlan(q, types, { spaceId: SPACE, cv, locale, under: null, after: null });
        const layout = plan.layout;
        expect(layout?.perLocale).toBe(type === 'thing');
        // With a driving filter (a positive eq/in on a string slot) the SQL reads list_rows too; without one it
        // reads list_entries and list_values.
        const drives = rowsLayout(plan) !== null;
        if (driver !== null) expect(drives).toBe(true);
        const table = await tableOf(plan);
        const selection = compileSelection(table, plan, layout!);
        // Every generated filter but those on `flag` (no slot) is a slot test the table answers; a list without a
        // driving filter is answered only for the type whose rows cover every entry (nothing localized).
        const probes = filters.some(([k]) => k.includes('fields.flag'));
        expect(selection === null).toBe(probes || (!drives && type === 'thing'));
        // What the service checks before it loads a table says the same from the plan alone.
        expect(answerable(plan, layout!)).toBe(selection !== null);
        if (selection === null) return;
        const total = await countList(env.store, plan);
        expect(countSelection(selection!)).toBe(total);
        let after: ListPlan['after'] = null;
        for (let page = 0; page < 5; page++) {
          const at = { ...plan, after };
          const sql = await pageList(env.store, at, total <= 1000);
          const slot = sortedBySlot(plan, layout!);
          expect(slot === null).toBe(sort.endsWith('publishedAt'));
          const memory =
            slot === null
              ? publishOrderPage(table, selection!, at)
              : slotOrderPage(table, selection!, at, slot);
          const expected = sql.map((r) => ({ entryId: r.entryId, cvFrom: r.cvFrom, after: r.after }));
          expect(memory).toEqual(expected);
          // A driving value's rows sorted by the number (rows/sorted-runs.ts), which slotOrderPage takes for runs of
          // SORTED_RUN_MIN rows or more (this space's are smaller), give the same page.
          const [rows] = selection.runs;
          if (slot !== null && isNumSlot(slot) && selection.driver !== null && rows !== undefined) {
            const run = sortedRun(table, selection.driver.slot, selection.driver.code, slot, rows);
            expect(run).not.toBeNull();
            expect(sortedRunPage(table, selection, at, slot, run!)).toEqual(expected);
            sortedRuns++;
          }
          if (sql.length <= limit) break;
          after = sql[limit - 1]!.after;
        }
      }),
      { numRuns: 120 },
    );
    // The generator drives a number-sorted list by one value often enough for the sorted runs to be checked.
    expect(sortedRuns).toBeGreaterThan(10);
  }, 120_000);

  it('answers a table too large for its budget with nothing, so SQL answers', async () => {
    const q = parseListQuery({ type: 'thing', 'filter[fields.size][eq]': 'm' }, types, 'en');
    const plan = listPlan(q, types, { spaceId: SPACE, cv, locale: 'en', under: null, after: null });
    const small = new RowsIndex(env.store, 20_000);
    expect(await small.load(plan, 'test')).toBeNull();
    expect(await small.tableFor(plan, 'test')).toBeNull();
    const enough = new RowsIndex(env.store, 8 * 1024 * 1024);
    const table = await enough.load(plan, 'test');
    expect(table?.size).toBe(N);
    expect(await enough.tableFor(plan, 'test')).toBe(table);
  });
});
