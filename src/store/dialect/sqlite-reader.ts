import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

const require = createRequire(import.meta.url);

/**
 * The thread's code: an eval'd CommonJS script (as src/search/local-embedder.ts's), so the same code runs from the
 * compiled `dist/` and from the TypeScript sources under the test runner. A connection of its own on the same file,
 * read-only by `query_only`; each message is one statement and its parameters, answered with its rows. WAL lets it
 * read beside the process's writer: it sees what was committed when its statement began.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('query_only = ON');
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -16384');
db.pragma('temp_store = MEMORY');
const statements = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (statement === undefined) {
      if (statements.size >= 200) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err), code: err && err.code });
  }
});
`;

/** The thread could not run the statement (it failed to start, died or was closed): not the statement's fault. */
export class ReaderUnavailable extends Error {}

/** How long a reader that failed refuses statements at once, so that each does not wait for a thread to fail. */
const RETRY_AFTER_MS = 30_000;

interface Waiting {
  resolve(rows: Record<string, unknown>[]): void;
  reject(err: Error): void;
}

/**
 * A read-only SQLite connection on a thread of its own, for the statements that can run for tens of milliseconds
 * in one call (a full-text list ranks every match: up to ~30 ms at 20,000 entries). better-sqlite3 runs a statement
 * synchronously, so on the process's own connection that time is the event loop's: every other request, cached
 * reads too, waits for it. Here the loop goes on while the thread works. Started at the first statement. A thread
 * that fails (it cannot open the file, it dies) fails the statements in hand with `ReaderUnavailable`, refuses the
 * next ones at once for half a minute, then starts another.
 */
export class SqliteReader {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  /** Until when statements are refused after the thread failed (performance.now()). */
  private failedUntil = 0;

  constructor(private readonly file: string) {}

  /**
   * The rows of a read-only statement. Rejects with `ReaderUnavailable` when the thread cannot run it (the caller
   * runs it on its own connection then), and with SQLite's error when the statement fails.
   */
  all(query: CompiledQuery): Promise<Record<string, unknown>[]> {
    if (performance.now() < this.failedUntil)
      return Promise.reject(new ReaderUnavailable('the SQLite reader failed recently'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      try {
        this.worker ??= this.start();
        this.worker.postMessage({ id, sql: query.sql, params: query.parameters });
      } catch (err) {
        this.waiting.delete(id);
        reject(new ReaderUnavailable(`the SQLite reader did not start: ${String(err)}`));
      }
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new ReaderUnavailable('the SQLite reader closed'));
    if (worker !== null) await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(THREAD_CODE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file: this.file },
    });
    worker.on('message', (msg: unknown) => this.answer(msg));
    worker.on('error', (err) => {
      this.failedUntil = performance.now() + RETRY_AFTER_MS;
      this.failAll(new ReaderUnavailable(`the SQLite reader failed: ${err.message}`));
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.failAll(new ReaderUnavailable('the SQLite reader ended'));
    });
    // Never what keeps a process alive; `close()` ends it.
    worker.unref();
    return worker;
  }

  private answer(msg: unknown): void {
    if (typeof msg !== 'object' || msg === null) return;
    const id: unknown = Reflect.get(msg, 'id');
    const waiting = typeof id === 'number' ? this.waiting.get(id) : undefined;
    if (waiting === undefined || typeof id !== 'number') return;
    this.waiting.delete(id);
    const rows: unknown = Reflect.get(msg, 'rows');
    const error: unknown = Reflect.get(msg, 'error');
    if (Array.isArray(rows)) waiting.resolve(rows.filter(isRecord));
    else {
      // As better-sqlite3's own errors: a message and SQLite's code.
      const err = new Error(typeof error === 'string' ? error : 'the SQLite reader answered nothing');
      const code: unknown = Reflect.get(msg, 'code');
      if (typeof code === 'string') Object.assign(err, { code });
      waiting.reject(err);
    }
  }

  private failAll(err: ReaderUnavailable): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(err);
  }
}

function isRecord(row: unknown): row is Record<string, unknown> {
  return typeof row === 'object' && row !== null;
}
