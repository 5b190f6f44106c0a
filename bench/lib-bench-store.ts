import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import type { StoreConfig } from '../src/config/config.js';
import { randomBase62 } from '../src/lib/ids.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { dropSchema } from '../test/helpers/engines.js';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchStore {
  engine: 'sqlite' | 'postgres';
  /** A new temporary directory: the SQLite file, blobs, whatever the bench writes. */
  dataDir: string;
  /** The PostgreSQL schema of this run (unused on SQLite). */
  schema: string;
  storeConfig: StoreConfig;
  store: Store;
  blobs: LocalDirBlobStore;
  /** Closes the store and removes what the run made: the directory, and the schema on PostgreSQL. */
  close(): Promise<void>;
}

/** A fresh store for one bench run: a SQLite file in a new directory, or a PostgreSQL schema of its own. */
export async function openBenchStore(engine: 'sqlite' | 'postgres', name: string): Promise<BenchStore> {
  const dataDir = mkdtempSync(join(tmpdir(), `folio-bench-${name}-`));
  const schema = `bench_${name}_${randomBase62(8).toLowerCase()}`;
  const storeConfig: StoreConfig =
    engine === 'sqlite'
      ? { engine, file: join(dataDir, 'folio.sqlite') }
      : { engine, url: DATABASE_URL, schema };
  const store = await openStore(storeConfig);
  return {
    engine,
    dataDir,
    schema,
    storeConfig,
    store,
    blobs: new LocalDirBlobStore(join(dataDir, 'blobs')),
    async close() {
      await store.close();
      if (engine === 'postgres') await dropSchema(schema, DATABASE_URL);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
