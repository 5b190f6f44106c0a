/**
 * The server of the benches of what one client can make it spend (bench/lib-spend.ts), a child process (bench/lib-child.ts starts it):
 *   lib-spend-server.ts <dataDir> <bundleDir>
 * Folio on SQLite with `<bundleDir>/bundle.json` imported, configured by the environment the bench passes
 * (`REQUEST_TIMEOUT_MS`, `IMAGE_DERIVATIONS_PER_MINUTE`, …: what the code under test does not know it ignores).
 * Prints `{ port }` when listening; on SIGTERM prints `{ maxRssMb, cpuMs }` and exits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openRuntime } from '../src/cli/runtime.js';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/server/app.js';
import { serveBenchChild } from './lib-serve.js';
import { wireDomains } from '../src/wiring/publish.js';

// Publishing and delivery need the domains' hooks before anything is generated (src/wiring/publish.ts).
wireDomains();

const [dataDir, bundleDir] = process.argv.slice(2);
if (!dataDir || !bundleDir) {
  console.error('usage: lib-spend-server.ts <dataDir> <bundleDir>');
  process.exit(2);
}
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', FOLIO_DEMO: 'false' });
const rt = await openRuntime(config);
const bundle = JSON.parse(readFileSync(join(bundleDir, 'bundle.json'), 'utf8')) as unknown;
await importBundle(rt.store, rt.blobs, bundle, { baseDir: bundleDir });
const app = await buildApp(rt);
app.addHook('onClose', async () => rt.close());
await serveBenchChild(app, {}, async () => {
  await app.close();
});
