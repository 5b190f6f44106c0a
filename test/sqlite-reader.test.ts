// A full-text list's statements run on SQLite's reader thread (src/store/dialect/sqlite-reader.ts), not on the
// process's connection, whose synchronous calls would hold the event loop for as long as they rank every match.
import Database from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSpace, WORDS } from '../bench/lib-entries-space.js';
import { ReaderUnavailable, SqliteReader } from '../src/store/dialect/sqlite-reader.js';
import { serveEnv, type TestApp } from './helpers/app.js';
import { buildApp } from '../src/server/app.js';
import type { FastifyInstance } from 'fastify';
import { openTestEnv } from './helpers/engines.js';

const SPACE = 'spc_reader';
const TOKEN = 'folio_pub_ReaderTestToken0000000001';

/** What every better-sqlite3 statement of this thread inherits: spied on to see what ran here. */
const statementProto = (() => {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Database.Statement;
  probe.close();
  return proto;
})();

/** The statements this thread ran during `run`, and its result. */
async function statementsDuring<T>(run: () => Promise<T>): Promise<{ result: T; sources: string[] }> {
  const sources: string[] = [];
  const original = statementProto.all;
  statementProto.all = function (this: Database.Statement, ...params: unknown[]) {
    sources.push(this.source);
    return original.apply(this, params) as unknown[];
  };
  try {
    return { result: await run(), sources };
  } finally {
    statementProto.all = original;
  }
}

describe('full-text lists on the SQLite reader thread', () => {
  let t: TestApp;
  /** An app over the same store whose statements all run on the process's connection. */
  let here: FastifyInstance;
  beforeAll(async () => {
    const env = await openTestEnv('sqlite');
    await generateSpace(env.store, env.blobs, SPACE, TOKEN, 800);
    // No response cache: each request runs its statements.
    const cache = { l1MaxBytes: 1, ttlSeconds: 1, pinnedTtlSeconds: 1 };
    t = await serveEnv(env, { cache });
    here = await buildApp({
      ...env,
      store: { ...env.store, readApart: null },
      config: { ...env.config, cache: { ...env.config.cache, ...cache } },
    });
  }, 120_000);
  afterAll(async () => {
    await here.close();
    await t.close();
  });

  const list = (app: FastifyInstance, query: string) =>
    app.inject({
      method: 'GET',
      url: `/v1/${SPACE}/entries?type=post&${query}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
  type Page = { items: { id: string }[]; total: number; nextCursor: string | null };

  it('ranks and counts the matches off this thread, and answers what the connection itself would', async () => {
    let matched = 0;
    for (const word of WORDS.slice(0, 8)) {
      const { result: res, sources } = await statementsDuring(() => list(t.app, `search=${word}&limit=5`));
      expect(res.statusCode).toBe(200);
      // The entries' own reads run here; the search over list_fts does not.
      expect(sources.filter((s) => /\blist_fts\b/.test(s))).toEqual([]);
      const { result: own, sources: ownSources } = await statementsDuring(() =>
        list(here, `search=${word}&limit=5`),
      );
      expect(ownSources.some((s) => /\blist_fts\b/.test(s))).toBe(true);
      const [a, b] = [res.json() as Page, own.json() as Page];
      expect(a.items.map((i) => i.id)).toEqual(b.items.map((i) => i.id));
      expect(a.total).toBe(b.total);
      expect(a.nextCursor === null).toBe(b.nextCursor === null);
      if (a.total > 0) matched++;
    }
    expect(matched).toBeGreaterThan(0);
  });

  it('answers from the connection when the reader cannot run the statement', async () => {
    const env = {
      ...t,
      store: { ...t.store, readApart: () => Promise.reject(new ReaderUnavailable('gone')) },
    };
    const fallback = await buildApp({ ...env, config: { ...t.config } });
    try {
      const word = WORDS[1] ?? 'ka';
      const { result, sources } = await statementsDuring(() => list(fallback, `search=${word}&limit=5`));
      expect(result.statusCode).toBe(200);
      expect(sources.some((s) => /\blist_fts\b/.test(s))).toBe(true);
      const own = (await list(here, `search=${word}&limit=5`)).json() as Page;
      const got = result.json() as Page;
      expect(got.items.map((i) => i.id)).toEqual(own.items.map((i) => i.id));
      expect(got.total).toBe(own.total);
    } finally {
      await fallback.close();
    }
  });

  it('pages a search by cursor on the reader too', async () => {
    const word = WORDS[0] ?? 'ka';
    const first = (await list(t.app, `search=${word}&limit=3`)).json() as Page;
    expect(first.total).toBeGreaterThan(3);
    const { result, sources } = await statementsDuring(() =>
      list(t.app, `search=${word}&limit=3&cursor=${encodeURIComponent(first.nextCursor ?? '')}`),
    );
    expect(result.statusCode).toBe(200);
    expect(sources.filter((s) => /\blist_fts\b/.test(s))).toEqual([]);
    const second = result.json() as Page;
    const own = (
      await list(here, `search=${word}&limit=3&cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
    ).json() as Page;
    expect(second.items.map((i) => i.id)).toEqual(own.items.map((i) => i.id));
    for (const item of second.items) expect(first.items.map((i) => i.id)).not.toContain(item.id);
  });
});

describe('SqliteReader', () => {
  it("answers a statement's rows, and an SQL error as better-sqlite3 would (message and code)", async () => {
    const env = await openTestEnv('sqlite');
    const file = env.storeConfig.engine === 'sqlite' ? env.storeConfig.file : '';
    const reader = new SqliteReader(file);
    try {
      expect(await reader.all(CompiledQuery.raw('select ? + 1 as n', [41]))).toEqual([{ n: 42 }]);
      const err = await reader
        .all(CompiledQuery.raw('select * from no_such_table', []))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error).message)).toMatch(/no such table/);
      expect(Reflect.get(err as object, 'code')).toBe('SQLITE_ERROR');
      // Read-only: a write is refused, whatever the statement says.
      await expect(reader.all(CompiledQuery.raw('delete from spaces returning cv', []))).rejects.toThrow(
        /readonly/i,
      );
    } finally {
      await reader.close();
      await env.close();
    }
  });

  it('a thread that cannot open its file fails its statements as unavailable, and refuses the next at once', async () => {
    const reader = new SqliteReader('/nonexistent/folio.sqlite');
    try {
      const first = await reader.all(CompiledQuery.raw('select 1 as n', [])).catch((err: unknown) => err);
      expect(first).toBeInstanceOf(ReaderUnavailable);
      const next = await reader.all(CompiledQuery.raw('select 1 as n', [])).catch((err: unknown) => err);
      expect(next).toBeInstanceOf(ReaderUnavailable);
      expect(String(next)).toMatch(/recently/);
    } finally {
      await reader.close();
    }
  });

  it('fails what it holds when closed, and starts a new thread for the next statement', async () => {
    const env = await openTestEnv('sqlite');
    const file = env.storeConfig.engine === 'sqlite' ? env.storeConfig.file : '';
    const reader = new SqliteReader(file);
    try {
      const held = reader.all(CompiledQuery.raw('select 1 as n', [])).catch((err: unknown) => err);
      await reader.close();
      expect(String(await held)).toMatch(/closed/);
      expect(await reader.all(CompiledQuery.raw('select 2 as n', []))).toEqual([{ n: 2 }]);
    } finally {
      await reader.close();
      await env.close();
    }
  });
});
