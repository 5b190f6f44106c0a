import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PooledLimitsHub } from '../src/kv/pooled-limits.js';
import { parseClusterMessage, type RateCounts } from '../src/cluster/worker-pool.js';
import { loadConfig } from '../src/config/config.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { PROCESS_START_MS, PROCESS_TEST_MS } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

// `WORKERS=2 folio serve` on the embedded default (SQLite, no Redis), as an operator starts it: the fan-out
// between the workers is the pool's IPC, so the cv poll is set an hour away.
const BIN = join(import.meta.dirname, '..', 'bin', 'folio.js');
const ENV = {
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  CV_POLL_MS: '3600000',
  FOLIO_DEMO: 'false',
  // Per token and minute; the other tests send the fixture's public token fewer requests than this.
  RATE_LIMIT_DELIVERY_PER_MINUTE: '60',
  // Each visitor's share of a token with origins, pooled like the token's count.
  RATE_LIMIT_SHARE_PER_MINUTE: '20',
  // Per visitor and minute (submissions and uploads): the form limits are shared across workers too.
  RATE_LIMIT_VISITOR_PER_MINUTE: '6',
};
const mgt = { authorization: `Bearer ${TOKENS.management}`, 'content-type': 'application/json' };

interface Pool {
  child: ChildProcess;
  base: string;
  pids: number[];
  output: () => string;
  exited: Promise<number | null>;
}

function startPool(dataDir: string): Promise<Pool> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...ENV, DATA_DIR: dataDir, PORT: '0', WORKERS: '2' },
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`the pool did not start: ${out}`)), PROCESS_START_MS);
    const onData = (d: Buffer) => {
      out += d.toString();
      const base = /serving (http:\/\/[\d.:]+)/.exec(out)?.[1];
      const pids = /pids ([\d, ]+)\)/.exec(out)?.[1];
      if (base && pids) {
        clearTimeout(timer);
        resolve({ child, base, pids: pids.split(', ').map(Number), output: () => out, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

/** One request on a connection of its own: the primary hands new connections to the workers in turn. */
function request(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false, timeout: 10_000 }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }),
      );
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Limit windows are clock minutes: starts a test early in one, so all its bursts count in the same window. */
async function earlyInAMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const title = async (base: string) => {
  const r = await request(base, 'GET', '/v1/spc_test/entries/ent_about?locale=en', {
    authorization: `Bearer ${TOKENS.public}`,
  });
  expect(r.status).toBe(200);
  const entry = r.json.entry as { content: { fields: { title: string } } };
  return { title: entry.content.fields.title, cv: r.json.cv };
};

describe('WORKERS: one port, several processes (SQLite, no Redis)', { timeout: PROCESS_TEST_MS }, () => {
  let pool: Pool;
  beforeAll(async () => {
    const dataDir = tempDir('folio-workers-');
    const dir = await fixtureDir();
    writeFileSync(join(dir, 'b.json'), JSON.stringify(fixtureBundle()));
    const imported = spawnSync(process.execPath, [BIN, 'import', join(dir, 'b.json')], {
      env: { ...process.env, ...ENV, DATA_DIR: dataDir },
    });
    expect(imported.status).toBe(0);
    pool = await startPool(dataDir);
  }, PROCESS_TEST_MS);
  afterAll(() => {
    pool?.child.kill('SIGKILL');
    for (const pid of pool?.pids ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('runs two worker processes besides the primary, on one port', () => {
    expect(pool.pids).toHaveLength(2);
    expect(new Set(pool.pids).size).toBe(2);
    for (const pid of [...pool.pids, pool.child.pid ?? 0]) expect(alive(pid)).toBe(true);
  });

  it('a publish in one worker reaches the other within moments (the poll is an hour away)', async () => {
    // Both workers serve the space first, so each holds its cv (a worker that never served it would read it fresh).
    const before = await Promise.all(Array.from({ length: 8 }, () => title(pool.base)));
    expect(new Set(before.map((b) => b.title))).toEqual(new Set(['About']));
    const saved = await request(pool.base, 'PATCH', '/v1/spaces/spc_test/entries/ent_about', mgt, {
      fields: { title: { en: 'About, everywhere', de: 'Über uns' } },
    });
    expect(saved.status).toBe(200);
    const published = await request(pool.base, 'POST', '/v1/spaces/spc_test/entries/ent_about/publish', {
      authorization: mgt.authorization,
    });
    expect(published.status).toBe(200);
    // Within moments, not at the poll: the relayed message and the next connection's handle may reach the other
    // worker in either order when the primary sees both in one turn of its loop.
    await expect
      .poll(
        async () => {
          const after = await Promise.all(Array.from({ length: 8 }, () => title(pool.base)));
          return after.filter((a) => a.title !== 'About, everywhere' || a.cv !== published.json.cv).length;
        },
        { timeout: 2000, interval: 20 },
      )
      .toBe(0);
  });

  it('a token revoked in one worker is refused by the other within moments', async () => {
    const made = await request(pool.base, 'POST', '/v1/spaces/spc_test/tokens', mgt, { kind: 'public' });
    expect(made.status).toBe(201);
    const token = made.json as { value: string; token: { id: string } };
    const read = () =>
      request(pool.base, 'GET', '/v1/spc_test/entries/ent_about', { authorization: `Bearer ${token.value}` });
    // Both workers have seen the token (each remembers what it decided about it).
    for (const r of await Promise.all(Array.from({ length: 8 }, read))) expect(r.status).toBe(200);
    const revoked = await request(pool.base, 'DELETE', `/v1/spaces/spc_test/tokens/${token.token.id}`, {
      authorization: mgt.authorization,
    });
    expect(revoked.status).toBe(200);
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 8 }, read))).map((r) => r.status), {
        timeout: 2000,
        interval: 20,
      })
      .toEqual(Array(8).fill(401));
  });

  it('holds one rate limit across the workers without Redis (counts synced through the primary)', async () => {
    const made = await request(pool.base, 'POST', '/v1/spaces/spc_test/tokens', mgt, { kind: 'public' });
    expect(made.status).toBe(201);
    const { value } = made.json as { value: string };
    const read = () =>
      request(pool.base, 'GET', '/v1/spc_test/entries/ent_about', { authorization: `Bearer ${value}` });
    await earlyInAMinute();
    // 60 on fresh connections, spread over both workers: each counts fewer than 60 itself, so all pass.
    for (const r of await Promise.all(Array.from({ length: 60 }, read))) expect(r.status).toBe(200);
    // After a sync (every 100 ms) each worker knows the other's count: the limit is reached wherever a request lands.
    await new Promise((r) => setTimeout(r, 1000));
    for (const r of await Promise.all(Array.from({ length: 6 }, read))) expect(r.status).toBe(429);
  });

  it("holds each visitor's share of a token with origins across the workers too", async () => {
    const made = await request(pool.base, 'POST', '/v1/spaces/spc_test/tokens', mgt, {
      kind: 'public',
      origins: ['https://site.example'],
    });
    expect(made.status).toBe(201);
    const { value } = made.json as { value: string };
    const read = () =>
      request(pool.base, 'GET', '/v1/spc_test/entries/ent_about', { authorization: `Bearer ${value}` });
    await earlyInAMinute();
    // This one visitor's 20 spread over both workers, then, after a sync, its share is spent on either.
    for (const r of await Promise.all(Array.from({ length: 20 }, read))) expect(r.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    for (const r of await Promise.all(Array.from({ length: 4 }, read))) {
      expect(r.status).toBe(429);
      expect(r.json.error).toMatchObject({ code: 'rate_limited', details: { limit: 20 } });
    }
  });

  it('holds the form limits across the workers too (per visitor)', async () => {
    const post = () =>
      request(
        pool.base,
        'POST',
        '/v1/spc_test/forms/contact/submissions',
        { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
        {},
      );
    await earlyInAMinute();
    // 6 at once over both workers (each counts 3 or so of this visitor), then, after a sync, the 7th and 8th.
    for (const r of await Promise.all(Array.from({ length: 6 }, post))) expect(r.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    for (const r of await Promise.all(Array.from({ length: 2 }, post))) expect(r.status).toBe(429);
  });

  it('writes from both workers at once all commit, one cv each (no SQLITE_BUSY)', async () => {
    const results = await Promise.all(
      Array.from({ length: 48 }, (_, i) =>
        request(pool.base, 'POST', '/v1/spaces/spc_test/redirects', mgt, {
          from: `/old-${i}`,
          to: { kind: 'url', url: '/about' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(48).fill(201));
    const cvs = results.map((r) => Number(r.json.cv));
    expect(new Set(cvs).size).toBe(48);
  });

  it('replaces a worker that dies; the replacement and the survivor serve', async () => {
    const [victim, survivor] = pool.pids as [number, number];
    process.kill(victim, 'SIGKILL');
    // A connection the primary handed to the worker as it died is lost with it; the ones after go to the survivor.
    await expect
      .poll(() => /worker \d replaced \(pid (\d+)\)/.exec(pool.output())?.[1], {
        timeout: PROCESS_START_MS,
        interval: 100,
      })
      .toBeDefined();
    const replacement = Number(/worker \d replaced \(pid (\d+)\)/.exec(pool.output())?.[1]);
    expect(alive(replacement)).toBe(true);
    expect(alive(survivor)).toBe(true);
    pool.pids = [replacement, survivor];
    const after = await Promise.all(Array.from({ length: 6 }, () => title(pool.base)));
    for (const a of after) expect(a.title).toBe('About, everywhere');
  });

  it('stops every worker on SIGTERM and exits 0', async () => {
    pool.child.kill('SIGTERM');
    expect(await pool.exited).toBe(0);
    for (const pid of pool.pids) expect(alive(pid)).toBe(false);
  });
});

describe('WORKERS config and messages', () => {
  it('reads WORKERS: 1 by default, a count, `auto`, and refuses the rest', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBeGreaterThanOrEqual(1);
    for (const bad of ['0', '65', 'two', '-1']) expect(() => loadConfig({ WORKERS: bad })).toThrow(/WORKERS/);
  });

  it('parses what arrives over IPC, and nothing else', () => {
    expect(parseClusterMessage({ folio: 'cv', spaceId: 'spc_a', cv: 3 })).toEqual({
      folio: 'cv',
      spaceId: 'spc_a',
      cv: 3,
    });
    expect(parseClusterMessage({ folio: 'tokens', spaceId: 'spc_a', gen: 2 })).toMatchObject({ gen: 2 });
    expect(parseClusterMessage({ folio: 'listening', port: 8080 })).toEqual({
      folio: 'listening',
      port: 8080,
    });
    for (const bad of [
      null,
      'cv',
      { folio: 'cv', spaceId: 'spc_a', cv: -1 },
      { folio: 'cv', spaceId: '', cv: 1 },
      { folio: 'cv', spaceId: 'spc_a', cv: '3' },
      { folio: 'tokens', spaceId: 'spc_a' },
      { folio: 'other', port: 1 },
      { cmd: 'NODE_CLUSTER' },
    ])
      expect(parseClusterMessage(bad)).toBeNull();
  });

  it('parses rate-limit counts, and refuses malformed ones', () => {
    const rl = { folio: 'rl', name: 'delivery', window: 29_000_000, counts: [['tok_a', 3]] };
    expect(parseClusterMessage(rl)).toEqual(rl);
    expect(parseClusterMessage({ ...rl, folio: 'rl-sum' })).toMatchObject({ folio: 'rl-sum' });
    for (const counts of [[['tok_a', -1]], [['tok_a']], [[3, 3]], 'tok_a', [['x'.repeat(301), 1]]])
      expect(parseClusterMessage({ ...rl, counts })).toBeNull();
    expect(parseClusterMessage({ ...rl, window: 1.5 })).toBeNull();
  });
});

describe('PooledLimitsHub: the primary sums rate-limit counts', () => {
  const report = (window: number, counts: [string, number][]): RateCounts => ({
    folio: 'rl',
    name: 'delivery',
    window,
    counts,
  });

  it('answers every other worker with the sum of all counts but its own', () => {
    const hub = new PooledLimitsHub();
    expect([...hub.report(0, report(5, [['a', 4]]), [0, 1, 2])]).toEqual([
      [1, { folio: 'rl-sum', name: 'delivery', window: 5, counts: [['a', 4]] }],
      [2, { folio: 'rl-sum', name: 'delivery', window: 5, counts: [['a', 4]] }],
    ]);
    hub.report(1, report(5, [['a', 2]]), [0, 1, 2]);
    // Worker 0's count went from 4 to 6: worker 1 learns 6 (0's), worker 2 learns 8 (0's and 1's).
    const sums = hub.report(
      0,
      report(5, [
        ['a', 6],
        ['b', 1],
      ]),
      [0, 1, 2],
    );
    expect(sums.get(1)?.counts).toEqual([
      ['a', 6],
      ['b', 1],
    ]);
    expect(sums.get(2)?.counts).toEqual([
      ['a', 8],
      ['b', 1],
    ]);
    expect(sums.has(0)).toBe(false);
  });

  it('starts each minute from nothing and ignores late reports of a minute already over', () => {
    const hub = new PooledLimitsHub();
    hub.report(0, report(5, [['a', 9]]), [0, 1]);
    expect(hub.report(1, report(6, [['a', 1]]), [0, 1]).get(0)?.counts).toEqual([['a', 1]]);
    expect(hub.report(0, report(5, [['a', 10]]), [0, 1]).size).toBe(0);
    expect(hub.report(0, report(6, [['a', 2]]), [0, 1]).get(1)?.counts).toEqual([['a', 2]]);
  });
});
