import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/open-store.js';
import { PROCESS_TEST_MS } from './helpers/processes.js';
import { tempDir } from './helpers/temp-dirs.js';

/** Another process (a second worker, `folio worker`, `folio import`) adding 10 to the counter, busy_timeout 5 s. */
function writeElsewhere(file: string): Promise<string> {
  const code = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
    d.pragma('busy_timeout = 5000'); d.prepare('update counter set n = n + 10').run(); process.stdout.write('done');`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { cwd: join(import.meta.dirname, '..') });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

describe(
  'SQLite transactions take the write lock first (several processes on one file)',
  { timeout: PROCESS_TEST_MS },
  () => {
    let store: Store | null = null;
    afterEach(async () => {
      await store?.close();
      store = null;
    });

    it('a transaction that reads, waits, then writes survives another process writing meanwhile', async () => {
      const file = join(tempDir('folio-immediate-'), 'folio.sqlite');
      store = await openStore({ engine: 'sqlite', file });
      const db = store.db;
      await sql`create table counter (n integer not null)`.execute(db);
      await sql`insert into counter (n) values (0)`.execute(db);
      let other: Promise<string> | null = null;
      await db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ n: number }>`select n from counter`.execute(tx);
        // With a plain BEGIN the other process commits now, and the write below fails at once with
        // SQLITE_BUSY_SNAPSHOT (its snapshot is stale); with BEGIN IMMEDIATE the other process waits for this one.
        other = writeElsewhere(file);
        await new Promise((r) => setTimeout(r, 400));
        await sql`update counter set n = ${(rows[0]?.n ?? 0) + 1}`.execute(tx);
      });
      expect(await other).toBe('done');
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(db);
      expect(rows[0]?.n).toBe(11);
    });
  },
);
