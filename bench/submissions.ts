/**
 * `npm run bench -- submissions [seconds]`: accepted form submissions per second over real HTTP (target:
 * ≥ 1,500/s on SQLite), on SQLite and PostgreSQL, against bare Fastify parsing the same JSON body and answering
 * `{ ok: true }` (the baseline, measured in the same run). autocannon runs in this process; each server runs in a
 * child process, which reports its peak RSS and the number of submissions it stored. Rate limits are lifted by
 * config; every accepted submission is validated, stored and enqueues its `form.submitted` event and its
 * notifications (three emails and a chat post; the job runner is off, so the figure is the request path alone).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import { BENCH_SPACE, BENCH_TOKEN } from './lib-submissions-space.js';
import { dropSchema } from '../test/helpers/engines.js';
import { autocannon } from './lib-autocannon.js';

const SERVER = join(import.meta.dirname, 'lib-submissions-server.ts');
const CONNECTIONS = 32;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BODY = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like to know more about the analytical engine.',
  consent: true,
});

async function run(name: string, server: ServerChild, seconds: number): Promise<number> {
  const url = `http://127.0.0.1:${server.info.port}/v1/${BENCH_SPACE}/forms/contact/submissions`;
  const options = {
    url,
    connections: CONNECTIONS,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: BODY,
  };
  const warm = await autocannon({ ...options, duration: 2 }); // JIT, caches, pools
  const r = await autocannon({ ...options, duration: seconds });
  const report = await stopServerChild(server);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const perSecond = r['2xx'] / seconds;
  const answered = warm['2xx'] + r['2xx'];
  // CPU per request in the server: the figure machine load does not distort (requests/s does).
  const cpuPerRequest = (Number(report.cpuMs) * 1000) / Math.max(1, answered);
  const stored =
    report.stored === undefined ? '' : `   stored ${String(report.stored)} of ${answered} answered`;
  console.log(
    `${name.padEnd(24)} ${perSecond.toFixed(0).padStart(7)} accepted/s   p99 ${String(r.latency.p99).padStart(4)} ms` +
      `   CPU ${cpuPerRequest.toFixed(0).padStart(4)} µs/req   peak RSS ${String(report.maxRssMb).padStart(4)} MB${stored}`,
  );
  return perSecond;
}

export default async function bench(args: string[]): Promise<void> {
  const seconds = Number(args[0] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-submissions-'));
  const schema = `bench_${Date.now().toString(36)}`;
  const children: ChildProcess[] = [];
  const started = async (args: string[], env?: Record<string, string>) => {
    const c = await startServerChild(SERVER, args, env);
    children.push(c.child);
    return c;
  };
  try {
    console.log(`${CONNECTIONS} connections, ${seconds} s per run, JSON bodies of ${BODY.length} bytes`);
    const bare = await started(['bare']);
    const baseline = await run('bare Fastify (baseline)', bare, seconds);
    const sqlite = await started(['folio', join(dir, 'sqlite')]);
    const onSqlite = await run('Folio on SQLite', sqlite, seconds);
    const postgres = await started(['folio', join(dir, 'postgres'), schema], { DATABASE_URL });
    const onPostgres = await run('Folio on PostgreSQL', postgres, seconds);
    console.log(
      `SQLite ${((onSqlite / baseline) * 100).toFixed(1)}% and PostgreSQL ${((onPostgres / baseline) * 100).toFixed(1)}% of the baseline; target ≥ 1,500/s on SQLite: ${onSqlite >= 1500 ? 'met' : 'NOT met'}`,
    );
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema, DATABASE_URL);
  }
}
