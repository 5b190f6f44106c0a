import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { LocalDirBlobStore } from '../../src/blobs/blob-store.js';
import type { Config, StoreConfig } from '../../src/config/config.js';
import { loadConfig } from '../../src/config/config.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { randomBase62 } from '../../src/lib/ids.js';

/** Set by test/setup/global.ts (given, found or started) before any test file loads; tests never skip it. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type Engine = 'sqlite' | 'postgres';
export const ENGINES: Engine[] = ['sqlite', 'postgres'];

export interface TestEnv {
  engine: Engine;
  store: Store;
  blobs: LocalDirBlobStore;
  dataDir: string;
  storeConfig: StoreConfig;
  config: Config;
  close(): Promise<void>;
}

/** A fresh, empty store: a temp SQLite file, or a PostgreSQL schema of its own (dropped on close). */
export async function openTestEnv(engine: Engine): Promise<TestEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-test-'));
  const schema = `t_${randomBase62(12).toLowerCase()}`;
  const storeConfig: StoreConfig =
    engine === 'sqlite'
      ? { engine, file: join(dataDir, 'folio.sqlite') }
      : { engine, url: DATABASE_URL, schema };
  const store = await openStore(storeConfig);
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://folio.test' }),
    store: storeConfig,
  };
  return {
    engine,
    store,
    blobs: new LocalDirBlobStore(join(dataDir, 'blobs')),
    dataDir,
    storeConfig,
    config,
    async close() {
      await store.close();
      if (engine === 'postgres') await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Drops a PostgreSQL schema a test or bench made for itself, with everything in it. */
export async function dropSchema(schema: string, url = DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${client.escapeIdentifier(schema)} cascade`);
  } finally {
    await client.end();
  }
}
