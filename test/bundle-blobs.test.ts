import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundleToDir } from '../src/bundle/export-bundle.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { buildApp } from '../src/server/app.js';
import { BLOB_KINDS, type TestBlobs, openTestBlobs } from './helpers/blobs.js';
import { openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';

// Asset files of bundles live in the blob store of the installation, S3 included: imported into
// it, delivered from it, exported out of it, byte for byte.

describe.each(BLOB_KINDS)('bundle asset files in %s blobs', (kind) => {
  let env: TestEnv;
  let blobs: TestBlobs;
  let dir: string;
  const out = mkdtempSync(join(tmpdir(), 'folio-test-export-'));

  beforeAll(async () => {
    env = await openTestEnv('sqlite');
    blobs = await openTestBlobs(kind);
    dir = await fixtureDir();
    await importBundle(env.store, blobs.blobs, fixtureBundle(), { baseDir: dir });
  });
  afterAll(async () => {
    await env.close();
    await blobs.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('delivers the imported file and exports it unchanged', async () => {
    const original = readFileSync(join(dir, 'pic.png'));
    const app = await buildApp({ config: env.config, store: env.store, blobs: blobs.blobs });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/spc_test/assets/ast_pic/pic.png' });
      expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'image/png']);
      expect(res.rawPayload.equals(original)).toBe(true);
    } finally {
      await app.close();
    }
    await exportBundleToDir(env.store, blobs.blobs, 'spc_test', out);
    const exported = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8')) as {
      assets: { file: string }[];
    };
    const file = exported.assets[0]?.file ?? '';
    expect(readFileSync(join(out, file)).equals(original)).toBe(true);
  });
});
