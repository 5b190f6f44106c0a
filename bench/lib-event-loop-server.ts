/**
 * The server side of `npm run bench -- event-loop` (bench/lib-child.ts starts it): Folio with its response cache
 * as shipped (the cached read must be a real hit), SQLite in the data dir, or PostgreSQL when DATABASE_URL and
 * DATABASE_SCHEMA are set.
 */
import { join } from 'node:path';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { loadConfig, type StoreConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { wireDomains } from '../src/wiring/publish.js';
import { serveBenchChild } from './lib-serve.js';

wireDomains();

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: lib-event-loop-server.ts <dataDir>');
  process.exit(2);
}
const url = process.env.DATABASE_URL;
const schema = process.env.DATABASE_SCHEMA;
const storeConfig: StoreConfig =
  url && schema
    ? { engine: 'postgres', url, schema }
    : { engine: 'sqlite', file: join(dataDir, 'folio.sqlite') };
const store = await openStore(storeConfig);
const config = {
  ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', FOLIO_DEMO: 'false', FOLIO_WORKER: 'off' }),
  store: storeConfig,
  rateLimitPerMinute: 100_000_000,
};
const app = await buildApp({ config, store, blobs: new LocalDirBlobStore(join(dataDir, 'blobs')) });
await serveBenchChild(app, {}, async () => {
  await app.close();
  await store.close();
});
