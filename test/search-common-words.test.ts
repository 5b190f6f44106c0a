import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ContentTypeDef, TypeMap } from '../src/content/model.js';
import { pageList } from '../src/delivery/list/list-query-repo.js';
import { parseListQuery } from '../src/delivery/list/list-params.js';
import { listPlan } from '../src/delivery/list/list-service.js';
import { COMMON_WORD_ROWS } from '../src/store/dialect/postgres-lists.js';
import { openTestEnv, type TestEnv } from './helpers/engines.js';

/**
 * Semantic search's word half on PostgreSQL (src/store/dialect/postgres-lists.ts, `matches` with `anyWord`): a
 * word the planner's statistics expect in more than COMMON_WORD_ROWS rows ranks the matches but does not select
 * them, and when every word is common the rows must hold them all (Elasticsearch's common-terms query). Without
 * the cut, "harbour lighthouse" would read all 2,100 harbour rows and keep the 400 best.
 */

const SPACE = 'spc_common';
const HARBOUR = 1100; // entries 0..1099 say "harbour"
const QUAY_FROM = 1000; // entries 1000..2099 say "quay": both words in 1000..1099 only
const ENTRIES = 2100;
const LIGHTHOUSE = [7, 1500, 2050]; // rare words
const BEACON = [3, 703, 1403];

const fields = [
  { key: 'title', type: 'text', localized: true },
  { key: 'body', type: 'textarea', localized: true },
];
const types: TypeMap = new Map(
  [{ key: 'post', kind: 'collection', pages: true, fields }].map((d) => [d.key, d as ContentTypeDef]),
);

function bundle(): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  const entries = Array.from({ length: ENTRIES }, (_, i) => {
    const words = [
      i < HARBOUR ? 'harbour' : 'meadow',
      i >= QUAY_FROM ? 'quay' : 'orchard',
      LIGHTHOUSE.includes(i) ? 'lighthouse' : 'cottage',
      BEACON.includes(i) ? 'beacon' : 'garden',
    ];
    return {
      id: `ent_c${i}`,
      type: 'post',
      name: `Note ${i}`,
      slug: `note-${i}`,
      parent: null,
      position: i,
      tags: [],
      published,
      fields: { title: { en: `Note ${i}` }, body: { en: `A walk past the ${words.join(' and the ')}.` } },
    };
  });
  return {
    format: 'folio-bundle@1',
    space: { id: SPACE, name: 'Common words', locales: [{ code: 'en', default: true }] },
    tokens: [],
    types: [...types.values()],
    entries,
  };
}

const index = (entryId: string) => Number(entryId.slice('ent_c'.length));

describe('the common-word cut of the any-word matches on postgres', () => {
  let t: TestEnv;
  let cv: number;

  beforeAll(async () => {
    t = await openTestEnv('postgres');
    await importBundle(t.store, t.blobs, bundle(), { baseDir: t.dataDir });
    // What the search-merge job runs after an import: the GIN pending list merged, then ANALYZE.
    await t.store.dialect.bulkSearchLoad?.after(t.store.db);
    const space = await t.store.db
      .selectFrom('spaces')
      .select('cv')
      .where('id', '=', SPACE)
      .executeTakeFirstOrThrow();
    cv = Number(space.cv);
  }, 120_000);
  afterAll(() => t?.close());

  const anyWord = async (search: string) => {
    const plan = listPlan(parseListQuery({ search, limit: '100' }, types, 'en'), types, {
      spaceId: SPACE,
      cv,
      locale: 'en',
      under: null,
      after: null,
    });
    return (await pageList(t.store, { ...plan, anyWord: true }, false)).map((r) => index(r.entryId));
  };

  it('reads both words as common from the statistics of the import', () => {
    expect(HARBOUR).toBeGreaterThan(COMMON_WORD_ROWS);
    expect(ENTRIES - QUAY_FROM).toBeGreaterThan(COMMON_WORD_ROWS);
  });

  it('selects by the rare word only; the common one does not add its rows', async () => {
    const found = await anyWord('harbour lighthouse');
    expect(found.sort((a, b) => a - b)).toEqual(LIGHTHOUSE);
  });

  it('ranks with every word: the rare-word entry that also says the common word comes first', async () => {
    const found = await anyWord('harbour lighthouse');
    expect(found[0]).toBe(7);
  });

  it('needs every word when all are common', async () => {
    const found = await anyWord('harbour quay');
    expect(found).toHaveLength(HARBOUR - QUAY_FROM);
    expect(found.every((i) => i >= QUAY_FROM && i < HARBOUR)).toBe(true);
  });

  it('keeps any-word matching among rare words', async () => {
    const found = await anyWord('lighthouse beacon harbour');
    expect(found.sort((a, b) => a - b)).toEqual([...BEACON, ...LIGHTHOUSE].sort((a, b) => a - b));
  });
});
