// The import bench's case at test size: a bundle of more entries than one progress slice of the bulk publish holds is
// imported with its progress reported, lists and search answer for it, and `exportBundleToDir` streams it in
// pages to exactly the bytes of the in-memory export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeImportBundle } from '../bench/lib-import-bundle.js';
import { listJobHandlers, SEARCH_MERGE_JOB } from '../src/delivery/list/list-jobs.js';
import { exportBundle, exportBundleToDir } from '../src/bundle/export-bundle.js';
import { type ImportProgress, importBundle } from '../src/bundle/import-bundle.js';
import { ENGINES, openTestEnv, type TestEnv } from './helpers/engines.js';
import { tempDir } from './helpers/temp-dirs.js';

// Over one slice (5,000) and over ten export pages (500).
const COUNT = 5_203;
const SPACE = 'spc_large';

describe.each(ENGINES)('a large bundle on %s', (engine) => {
  let env: TestEnv;
  let dir: string;
  let file: string;
  const progress: ImportProgress[] = [];
  beforeAll(async () => {
    env = await openTestEnv(engine);
    dir = tempDir('folio-large-');
    file = join(dir, 'bundle.json');
    await writeImportBundle(file, SPACE, 'folio_pub_largebundletoken1234', COUNT);
    await importBundle(env.store, env.blobs, JSON.parse(readFileSync(file, 'utf8')), {
      baseDir: dir,
      onProgress: (p) => progress.push(p),
    });
  }, 120_000);
  afterAll(async () => env.close());

  it('reports each phase in order, and the publish slice by slice up to every entry', () => {
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['validate', 'assets', 'entries', 'publish', 'commit']);
    const publish = progress.filter((p) => p.phase === 'publish');
    expect(publish.map((p) => p.done)).toEqual([5_000, COUNT]);
    expect(publish.every((p) => p.total === COUNT)).toBe(true);
  });

  it('publishes every entry into the log, the lists and the search rows', async () => {
    const versions = await env.store.db
      .selectFrom('entry_versions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('space_id', '=', SPACE)
      .executeTakeFirstOrThrow();
    expect(Number(versions.n)).toBe(COUNT);
    const listed = await env.store.db
      .selectFrom('list_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('space_id', '=', SPACE)
      .where('type', '=', 'post')
      .executeTakeFirstOrThrow();
    // Every entry but the base bundle's pages, folders and authors is a post.
    expect(Number(listed.n)).toBeGreaterThan(COUNT - 400);
  });

  it('queues the merge of the search rows it left pending, where the engine has one, and the merge runs', async () => {
    const jobs = await env.store.db
      .selectFrom('outbox')
      .select('kind')
      .where('space_id', '=', SPACE)
      .where('kind', '=', SEARCH_MERGE_JOB)
      .execute();
    expect(jobs).toHaveLength(env.store.dialect.bulkSearchLoad ? 1 : 0);
    const [, merge] = listJobHandlers({ store: env.store })[0] ?? [];
    // Run as the job runner would (the claimed job's fields are not read).
    await expect(merge?.({} as Parameters<NonNullable<typeof merge>>[0])).resolves.toBeUndefined();
  });

  it('streams the export in pages to exactly the bytes of the in-memory export', async () => {
    const out = tempDir('folio-large-export-');
    const written = await exportBundleToDir(env.store, env.blobs, SPACE, out);
    const { bundle } = await exportBundle(env.store, SPACE);
    expect(bundle.entries).toHaveLength(COUNT);
    expect(readFileSync(written, 'utf8')).toBe(`${JSON.stringify(bundle, null, 2)}\n`);
    const ids = bundle.entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
  });
});
