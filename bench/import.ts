/**
 * `npm run bench -- import [count]`: `folio import` of a generated bundle of `count` entries
 * (default 100,000) with every localized field in three locales, on SQLite and on PostgreSQL, each in a process
 * of its own and timed from start to exit (reading and parsing the file included); then `folio export` of the
 * imported space with its peak RSS beside the RSS it had once loaded (the export streams, so the difference must
 * not grow with the space). Targets: import ≤ 60 s on SQLite, ≤ 90 s on PostgreSQL.
 *
 * Baseline, in its own process, on the same file: parse it and write each entry's JSON once as a row with the
 * bare driver (bench/lib-import-baseline.ts): the floor of storing the bytes, with nothing derived.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema } from '../test/helpers/engines.js';
import { writeImportBundle } from './lib-import-bundle.js';
import { benchServerArgv } from './lib-child.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SPACE = 'spc_bench';
const TARGET_S = { sqlite: 60, postgres: 90 } as const;

interface ChildResult {
  seconds: number;
  last: Record<string, unknown>;
}

/** Runs a bench script under tsx; resolves with its wall time and the JSON of its last stdout line. */
function run(script: string, args: string[], env: Record<string, string>): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, benchServerArgv(join(import.meta.dirname, script), args), {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      const lines = out.trim().split('\n');
      try {
        resolve({ seconds, last: JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown> });
      } catch {
        reject(new Error(`${script} exited ${code}: ${out.slice(-500)}`));
      }
    });
  });
}

export default async function bench(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-import-'));
  const schema = `bench_import_${Date.now().toString(36)}`;
  try {
    const file = join(dir, 'bundle.json');
    const t0 = performance.now();
    const n = await writeImportBundle(file, SPACE, 'folio_pub_benchimportbench1234', count);
    const mb = statSync(file).size / 1024 / 1024;
    console.log(
      `bundle: ${n} entries, 3 locales, ${mb.toFixed(0)} MB (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const engines = [
      { name: 'sqlite' as const, env: { DATA_DIR: join(dir, 'sqlite'), DATABASE_URL: '' } },
      {
        name: 'postgres' as const,
        env: { DATA_DIR: join(dir, 'postgres'), DATABASE_URL, DATABASE_SCHEMA: schema },
      },
    ];
    for (const { name, env } of engines) {
      const imported = await run('lib-import-child.ts', ['import', file], env);
      if (imported.last.code !== 0) throw new Error(`import on ${name} exited ${String(imported.last.code)}`);
      const target = TARGET_S[name];
      console.log(
        `folio import  ${name.padEnd(8)} ${imported.seconds.toFixed(1).padStart(6)} s  ` +
          `(${(n / imported.seconds).toFixed(0)} entries/s; target ≤ ${target} s${imported.seconds <= target ? '' : ', OVER TARGET'})` +
          `  peak RSS ${String(imported.last.peakMb)} MB`,
      );
      const out = join(dir, `export-${name}`);
      const exported = await run('lib-import-child.ts', ['export', SPACE, out], env);
      if (exported.last.code !== 0) throw new Error(`export on ${name} exited ${String(exported.last.code)}`);
      const size = statSync(join(out, 'bundle.json')).size / 1024 / 1024;
      const idle = Number(exported.last.idleMb);
      const peak = Number(exported.last.peakMb);
      console.log(
        `folio export  ${name.padEnd(8)} ${exported.seconds.toFixed(1).padStart(6)} s  ${size.toFixed(0)} MB written` +
          `  RSS loaded ${idle} MB, peak ${peak} MB (+${peak - idle} MB)`,
      );
      const baseline = await run(
        'lib-import-baseline.ts',
        [name, file, name === 'sqlite' ? join(dir, 'baseline.sqlite') : DATABASE_URL],
        {},
      );
      console.log(
        `baseline      ${name.padEnd(8)} ${Number(baseline.last.seconds).toFixed(1).padStart(6)} s  ` +
          `(bare driver: parse the file, one row per entry document)  peak RSS ${String(baseline.last.peakMb)} MB`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema, DATABASE_URL).catch(() => undefined);
  }
}
