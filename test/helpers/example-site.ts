import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, PROCESS_START_MS } from './processes.js';

/** examples/site/server.mjs: `npm run example` (serve) and `npm run example -- build <dir>`. */
export const EXAMPLE_SITE = join(import.meta.dirname, '..', '..', 'examples', 'site', 'server.mjs');

export interface ExampleSite {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>` of the site. */
  origin: string;
  port: number;
}

/**
 * Starts examples/site/server.mjs as `npm run example` does, against a running `folio serve` whose data directory
 * holds the demo tokens, and resolves once it says it listens (rejects if it exits or stays silent).
 */
export async function startExampleSite(folioBase: string, dataDir: string): Promise<ExampleSite> {
  const port = await freePort();
  const site = spawn(process.execPath, [EXAMPLE_SITE], {
    env: { ...process.env, FOLIO_URL: folioBase, DATA_DIR: dataDir, SITE_PORT: String(port) },
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the site did not start: ${out}`)), PROCESS_START_MS);
    site.stderr?.on('data', (d) => (out += d));
    site.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('Example site on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    site.once('exit', (code) => reject(new Error(`the site exited ${code}: ${out}`)));
  });
  return { process: site, origin: `http://127.0.0.1:${port}`, port };
}

/**
 * `npm run example -- build <dir>` for a site served at `origin` (its forms redirect there): plain files, no server
 * side. Resolves with what the build printed.
 */
export function buildExampleSite(
  folioBase: string,
  dataDir: string,
  dir: string,
  origin: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [EXAMPLE_SITE, 'build', dir], {
      env: { ...process.env, FOLIO_URL: folioBase, DATA_DIR: dataDir, SITE_ORIGIN: origin },
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`build exited ${code}: ${out}`)),
    );
  });
}
