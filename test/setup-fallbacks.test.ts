// Where no PostgreSQL or Redis answers, the suite starts its own (test/setup/): an embedded
// PostgreSQL from npm and a redis-server of its own. Both fallbacks run here for real, with the probed addresses
// pointed at a port nothing listens on and the URLs the suite itself uses hidden from them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DEAD = '127.0.0.1:1';
const saved = { db: process.env.DATABASE_URL, redis: process.env.REDIS_URL, tmp: process.env.TMPDIR };

describe('the suite without a PostgreSQL or Redis to find', () => {
  let runDir: string;
  beforeAll(() => {
    // As the global setup does: a run folder straight in the system temp folder, which is also TMPDIR (as root,
    // PostgreSQL runs as the "postgres" user and must reach it; the suite's own run folder is private).
    const system = basename(tmpdir()).startsWith('folio-test-run-') ? dirname(tmpdir()) : tmpdir();
    runDir = mkdtempSync(join(system, 'folio-fallback-'));
    process.env.TMPDIR = runDir;
    delete process.env.DATABASE_URL;
    delete process.env.REDIS_URL;
    process.env.FOLIO_TEST_PG_PROBE = `postgres://postgres@${DEAD}/test`;
    process.env.FOLIO_TEST_REDIS_PROBE = `redis://${DEAD}`;
  });
  afterAll(() => {
    if (saved.db !== undefined) process.env.DATABASE_URL = saved.db;
    if (saved.redis !== undefined) process.env.REDIS_URL = saved.redis;
    if (saved.tmp !== undefined) process.env.TMPDIR = saved.tmp;
    rmSync(runDir, { recursive: true, force: true });
  });

  it('starts an embedded PostgreSQL with a database "test", and stops it', async () => {
    const { postgresForTests } = await import('./setup/postgres.js');
    const engine = await postgresForTests(runDir);
    try {
      expect(engine.label).toMatch(/^embedded /);
      const client = new pg.Client({ connectionString: engine.url });
      await client.connect();
      const { rows } = await client.query<{ db: string }>('select current_database() as db');
      await client.end();
      expect(rows[0]?.db).toBe('test');
    } finally {
      await engine.stop();
    }
  }, 60_000);

  it('starts a redis-server of its own, and stops it', async () => {
    const { redisForTests } = await import('./setup/redis.js');
    const engine = await redisForTests();
    try {
      expect(engine.url).not.toContain(DEAD);
      const redis = new Redis(engine.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      expect(await redis.ping()).toBe('PONG');
      redis.disconnect();
    } finally {
      await engine.stop();
    }
  }, 30_000);
});

describe('the Debian packages the suite needs (test/setup/system-packages.ts)', () => {
  const saved = process.env.FOLIO_TEST_NO_INSTALL;
  afterAll(() => {
    if (saved === undefined) delete process.env.FOLIO_TEST_NO_INSTALL;
    else process.env.FOLIO_TEST_NO_INSTALL = saved;
  });

  it('checks redis-server, Chromium, nginx and Varnish with xkey, which this run has (the setup installed them if missing)', async () => {
    const { SYSTEM_PACKAGES } = await import('./setup/system-packages.js');
    expect(SYSTEM_PACKAGES.map((p) => [p.name, p.present()])).toEqual([
      ['redis-server', true],
      ['chromium', true],
      ['nginx', true],
      ['varnish', true],
      ['varnish-modules', true],
    ]);
  });

  it('stops with the one command to run when it may not install what is missing', async () => {
    const { ensureSystemPackages } = await import('./setup/system-packages.js');
    const { SetupError } = await import('./setup/engine.js');
    process.env.FOLIO_TEST_NO_INSTALL = '1';
    const missing = [
      { name: 'folio-missing-a', present: () => false },
      { name: 'redis-server', present: () => true },
      { name: 'folio-missing-b', present: () => false },
    ];
    expect(() => ensureSystemPackages(missing)).toThrow(SetupError);
    expect(() => ensureSystemPackages(missing)).toThrow(
      'missing folio-missing-a, folio-missing-b: run `sudo apt-get install -y folio-missing-a folio-missing-b`',
    );
    expect(() => ensureSystemPackages(missing.slice(1, 2))).not.toThrow();
  });
});
