/**
 * The import bench's baseline, in a process of its own: the same bundle file read and parsed, and each entry's
 * JSON written once as one row (id, document) with the bare driver in one transaction: better-sqlite3 with a
 * prepared statement, or pg with multi-row inserts. The floor of storing the bytes, with nothing derived.
 */
import { readFileSync, rmSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { peakRssMb } from './lib-peak-rss.js';

const [engine, file, target] = process.argv.slice(2);
const t0 = performance.now();
const bundle = JSON.parse(readFileSync(file ?? '', 'utf8')) as { entries: { id: string }[] };
const rows = bundle.entries.map((e) => [e.id, JSON.stringify(e)] as const);
if (engine === 'sqlite') {
  const db = new BetterSqlite3(target ?? '');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table docs (id text primary key, doc text not null)');
  const insert = db.prepare('insert into docs (id, doc) values (?, ?)');
  db.transaction(() => {
    for (const [id, doc] of rows) insert.run(id, doc);
  })();
  db.close();
  rmSync(target ?? '', { force: true });
} else {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const table = `bench_import_baseline_${process.pid}`;
  await client.query(`create table ${table} (id text primary key, doc jsonb not null)`);
  await client.query('begin');
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const values = chunk.map((_, j) => `($${2 * j + 1}, $${2 * j + 2})`).join(',');
    await client.query(`insert into ${table} (id, doc) values ${values}`, chunk.flat());
  }
  await client.query('commit');
  await client.query(`drop table ${table}`);
  await client.end();
}
console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, peakMb: peakRssMb() }));
process.exit(0);
