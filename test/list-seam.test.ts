import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { typesFingerprint } from '../src/delivery/list/list-totals.js';
import type { ListAnswer, ListPlan } from '../src/delivery/list/plan.js';
import { RowsIndex } from '../src/delivery/list/rows/rows-index.js';
import { sqlList } from '../src/delivery/list/sql-list.js';
import { bundle, plainType, SPACE, thingType } from './helpers/rows-fixture.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';

// The list engine's one seam (docs/architecture.md "Entry lists"): list-service.ts picks the
// preview evaluator, the rows index or SQL, and the rows index answers a published list whole (its total and its
// page, which it may take from SQL) or not at all. Its answers are SQL's, cursors included, so the pages of one
// listing may come from either. (Which rows a table holds and how it pages them: test/rows-index.test.ts.)

/** What list-service.ts reads of an answer (SQL's rows also carry the version's row id). */
const read = (a: ListAnswer | undefined) =>
  a && {
    total: a.total,
    rows: a.rows.map((r) => ({ entryId: r.entryId, cvFrom: r.cvFrom, after: r.after })),
  };

const LIST = join(import.meta.dirname, '..', 'src', 'delivery', 'list');
const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '([^']+)';$/gms)].map((m) => m[1]!);

describe("the list engine's layout", () => {
  it('list-service.ts reaches the rows index through its one entry, and nothing outside rows/ reaches further', () => {
    const service = importsOf(join(LIST, 'list-service.ts'));
    expect(service.filter((p) => /(^|\/)rows[-/]/.test(p))).toEqual(['./rows/rows-index.js']);
    // Outside rows/, the rows index's modules are its entry and, for SQL's page shapes, its thresholds.
    for (const file of readdirSync(LIST).filter((f) => f.endsWith('.ts'))) {
      const inside = importsOf(join(LIST, file)).filter((p) => p.startsWith('./rows/'));
      expect(
        inside.every((p) => p === './rows/rows-index.js' || p === './rows/policy.js'),
        `${file}: ${inside.join(', ')}`,
      ).toBe(true);
    }
  });
});

describe.each(ENGINES)("the rows index's one entry (%s)", (engine) => {
  let env: TestEnv;
  let types: TypeMap;
  let cv: number;
  // The store for SQL's answers: another object over the same connection, so it has totals cached of its own
  // (list-totals.ts keeps them per store) and each side counts for itself.
  let sqlStore: TestEnv['store'];

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
    sqlStore = { ...env.store };
  }, 60_000);
  afterAll(async () => env.close());

  const planOf = (query: Record<string, string>, at: Partial<Pick<ListPlan, 'under' | 'after'>> = {}) => {
    const q = parseListQuery(query, types, 'de');
    const plan = listPlan(q, types, { spaceId: SPACE, cv, locale: 'de', under: null, after: null, ...at });
    return { plan, selection: q.selection };
  };

  it('answers no list a table cannot answer, and none before its table is loaded', async () => {
    const index = new RowsIndex(env.store, 64 * 1024 * 1024);
    const driven = { type: 'thing', 'filter[fields.size][eq]': 'm' };
    for (const { plan, selection } of [
      // Full text, `under`, a filter without a slot (`flag` finds the string slots taken), no type.
      planOf({ type: 'thing', search: 'thing' }),
      planOf(driven, { under: '/things' }),
      planOf({ ...driven, 'filter[fields.flag][eq]': 'true' }),
      planOf({ 'filter[fields.size][eq]': 'm' }),
    ])
      expect(await index.answer(plan, selection, types)).toBeUndefined();
    // None of those counts as a list the index could answer, nor starts a load.
    expect(index.stats()).toMatchObject({ tables: 0, lists: { memory: 0, sql: 0 } });

    // An answerable list finds no table yet: SQL answers it while the table loads.
    const { plan, selection } = planOf(driven);
    expect(await index.answer(plan, selection, types)).toBeUndefined();
    expect(index.stats().lists).toEqual({ memory: 0, sql: 1 });
    await index.load(plan, typesFingerprint(types));
    expect(read(await index.answer(plan, selection, types))).toEqual(
      read(await sqlList(sqlStore, plan, selection, types)),
    );
    expect(index.stats().lists).toEqual({ memory: 1, sql: 1 });
  });

  it.each([
    [
      'in publish order',
      { type: 'thing', 'filter[fields.size][in]': 'm,l', 'filter[fields.score][gte]': '9' },
    ],
    ['by a number', { type: 'thing', 'filter[fields.size][eq]': 's', sort: '-fields.score' }],
    [
      'by a date',
      {
        type: 'thing',
        'filter[fields.color][ne]': 'red',
        'filter[fields.size][eq]': 'l',
        sort: 'fields.day',
      },
    ],
    // Counted from the table, paged by SQL (no slot holds the name).
    ['by name', { type: 'thing', 'filter[fields.size][eq]': 'xl', sort: '-name' }],
    ['without a driving filter', { type: 'plain', 'filter[fields.weight][lt]': '2', sort: 'fields.weight' }],
  ])('answers %s as SQL does, and a listing continues from one to the other', async (_, query) => {
    const index = new RowsIndex(env.store, 64 * 1024 * 1024);
    const first = planOf({ ...query, limit: '9' });
    await index.load(first.plan, typesFingerprint(types));
    const ids: string[] = [];
    let after: ListPlan['after'] = null;
    for (let page = 0; ; page++) {
      const { plan, selection } = planOf({ ...query, limit: '9' }, { after });
      const sql = await sqlList(sqlStore, plan, selection, types);
      const mine = await index.answer(plan, selection, types);
      expect(read(mine)).toEqual(read(sql));
      // Every other page continues from the other evaluator's cursor: both issue the same cursor values.
      const used: ListAnswer = page % 2 === 0 ? mine! : sql;
      ids.push(...used.rows.slice(0, plan.limit).map((r) => r.entryId));
      if (used.rows.length <= plan.limit) {
        expect(ids).toHaveLength(sql.total);
        break;
      }
      after = used.rows[plan.limit - 1]!.after;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(index.stats().lists.sql).toBe(0);
  });
});
