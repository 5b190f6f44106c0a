import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineForTests, SetupError } from './engine.js';
import { postgresForTests } from './postgres.js';
import { redisForTests } from './redis.js';
import { ensureSystemPackages } from './system-packages.js';

/**
 * Vitest's global setup: one temp folder for the whole run (TMPDIR, inherited by the forks and every process
 * they spawn, removed at the end, so nothing is left behind), and the PostgreSQL and Redis the tests use,
 * found or started here (README, "Tests"), after the Debian packages the suite needs (installed as root when
 * missing). The forks read DATABASE_URL and REDIS_URL from their environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const previousTmp = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), 'folio-test-run-'));
  process.env.TMPDIR = runDir;
  const engines: EngineForTests[] = [];
  const teardown = async () => {
    for (const engine of engines.reverse()) await engine.stop().catch(() => {});
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(runDir, { recursive: true, force: true });
  };
  try {
    ensureSystemPackages();
    const postgres = await postgresForTests(runDir);
    engines.push(postgres);
    const redis = await redisForTests();
    engines.push(redis);
    process.env.DATABASE_URL = postgres.url;
    process.env.REDIS_URL = redis.url;
    console.log(`engines: sqlite, postgres (${postgres.label}), redis (${redis.label})`);
  } catch (e) {
    await teardown();
    if (!(e instanceof SetupError)) throw e;
    // One line saying what to install or set, not a stack and a "No test files found" from vitest.
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  return teardown;
}
