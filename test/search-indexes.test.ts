import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { normalize } from '../src/search/embedder.js';
import { insertVectors, markIndexed, resetSearchIndex } from '../src/search/embeddings-repo.js';
import { readSearchState } from '../src/store/search-state-repo.js';
import { textHash } from '../src/search/indexer.js';
import { SearchIndexes } from '../src/search/search-indexes.js';
import { packVector } from '../src/search/vector-bytes.js';
import { openTestEnv, type TestEnv } from './helpers/engines.js';

/**
 * The memory budget of the in-process vector indexes (SEARCH_INDEX_MAX_MB): past it the least recently used
 * index is dropped, and a dropped index loads again, whole, when it is searched next.
 */

const SPACE = 'spc_budget';
const MODEL = 'test:budget';
const DIM = 64;
const ENTRIES = 600;
const LOCALES = ['en', 'de', 'fr'];

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const unit = () => normalize(Float32Array.from({ length: DIM }, () => rand() - 0.5));

function bundle(): Record<string, unknown> {
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  return {
    format: 'folio-bundle@1',
    space: {
      id: SPACE,
      name: 'Budget',
      ai: true,
      locales: [{ code: 'en', default: true }, { code: 'de' }, { code: 'fr' }],
    },
    tokens: [],
    types: [{ key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text', localized: true }] }],
    entries: Array.from({ length: ENTRIES }, (_, i) => ({
      id: `ent_b${i}`,
      type: 'page',
      name: `Page ${i}`,
      slug: `page-${i}`,
      parent: null,
      position: i,
      tags: [],
      published,
      fields: { title: { en: `Page ${i}` } },
    })),
  };
}

describe('the vector indexes held in memory, under a budget', () => {
  let t: TestEnv;
  let cv: number;
  const query = unit();

  beforeAll(async () => {
    t = await openTestEnv('sqlite');
    await importBundle(t.store, t.blobs, bundle(), { baseDir: t.dataDir });
    cv = Number(
      (await t.store.db.selectFrom('spaces').select('cv').where('id', '=', SPACE).executeTakeFirstOrThrow())
        .cv,
    );
    await resetSearchIndex(t.store.db, SPACE, MODEL);
    for (const locale of LOCALES)
      await insertVectors(
        t.store.db,
        SPACE,
        MODEL,
        Array.from({ length: ENTRIES }, (_, i) => ({
          locale,
          entryId: `ent_b${i}`,
          cvFrom: cv,
          chunk: 0,
          textHash: textHash(`${locale}${i}`),
          vector: packVector(unit()),
        })),
      );
    await markIndexed(t.store.db, SPACE, MODEL, cv);
  });
  afterAll(() => t?.close());

  const state = async () => {
    const s = await readSearchState(t.store.db, SPACE);
    if (!s) throw new Error('no search state');
    return s;
  };
  const best = async (indexes: SearchIndexes, locale: string) =>
    (await indexes.at(SPACE, locale, await state(), cv))
      .nearest(query, 5, { cv, type: null })
      .map((h) => h.row.entryId);

  it('holds every index without a budget', async () => {
    const indexes = new SearchIndexes(t.store);
    for (const locale of LOCALES) await best(indexes, locale);
    expect(indexes.count).toBe(3);
  });

  it('drops the least recently used index past the budget, and loads it again when searched', async () => {
    const unbounded = new SearchIndexes(t.store);
    const expected = new Map<string, string[]>();
    for (const locale of LOCALES) expected.set(locale, await best(unbounded, locale));
    const oneIndex = unbounded.bytes / 3;

    // Room for two indexes: the third search drops the oldest (en).
    const indexes = new SearchIndexes(t.store, Math.floor(oneIndex * 2.5));
    expect(await best(indexes, 'en')).toEqual(expected.get('en'));
    expect(await best(indexes, 'de')).toEqual(expected.get('de'));
    expect(indexes.count).toBe(2);
    expect(await best(indexes, 'fr')).toEqual(expected.get('fr'));
    expect(indexes.count).toBe(2);
    expect(indexes.bytes).toBeLessThanOrEqual(oneIndex * 2.5);
    // en was dropped; searching it drops de (now the oldest) and answers exactly as before.
    expect(await best(indexes, 'en')).toEqual(expected.get('en'));
    expect(indexes.count).toBe(2);
  });

  it('loads an index in slices: a tick before each page of rows and each row, the same index as unsliced', async () => {
    let ticks = 0;
    const counting = { tick: () => Promise.resolve(void ticks++) };
    const sliced = await new SearchIndexes(t.store).at(SPACE, 'en', await state(), cv, counting);
    // A tick per row and one before the page: 600 rows are one page of up to 1,000.
    expect(ticks).toBe(ENTRIES + 1);
    expect(sliced.size).toBe(ENTRIES);
    expect(sliced.nearest(query, 5, { cv, type: null }).map((h) => h.row.entryId)).toEqual(
      await best(new SearchIndexes(t.store), 'en'),
    );
  });

  it('keeps serving an index larger than the whole budget', async () => {
    const indexes = new SearchIndexes(t.store, 1);
    expect(await best(indexes, 'en')).toHaveLength(5);
    expect(await best(indexes, 'de')).toHaveLength(5);
    expect(indexes.count).toBe(1);
  });
});

describe('SEARCH_INDEX_MAX_MB', () => {
  it('defaults to 1024 and refuses what is not a whole number of megabytes from 16', () => {
    expect(loadConfig({}).searchIndexMaxMb).toBe(1024);
    expect(loadConfig({ SEARCH_INDEX_MAX_MB: '64' }).searchIndexMaxMb).toBe(64);
    for (const bad of ['8', 'lots', '1.5', '-1'])
      expect(() => loadConfig({ SEARCH_INDEX_MAX_MB: bad })).toThrow(ConfigError);
  });
});
