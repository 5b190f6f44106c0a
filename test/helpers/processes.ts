import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'folio.js');

/**
 * Bounds for tests that spawn processes: on a loaded two-core machine starting `folio serve` (Node, the store, the
 * demo import) took over 20 s, so a start may take a minute and a test that starts several two.
 */
export const PROCESS_START_MS = 60_000;
export const PROCESS_TEST_MS = 120_000;

/** A free TCP port on loopback (bound once and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A redis-server of the test's own on a port of its own, without persistence: it can be killed and restarted. */
export class RedisServer {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await until(async () => {
      const probe = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    }, `redis-server on ${this.port}`);
  }

  /** SIGKILL: the way a crashed Redis goes, without a goodbye to its clients. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

export interface FolioProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `folio serve` (the built dist) on a free port and resolves once it prints its address. */
export function serveFolio(env: Record<string, string>): Promise<FolioProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        FOLIO_DEMO: 'false',
        ...env,
        PORT: env.PORT ?? '0',
        LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), PROCESS_START_MS);
    const onExit = (code: number | null) => reject(new Error(`serve exited ${code}: ${out}`));
    child.once('exit', onExit);
    child.stderr.on('data', (d) => (out += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /serving (http:\/\/[\d.:]+)/.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({
        base: m[1],
        child,
        output: () => out,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** Runs a `folio` command to its end. */
export function runFolio(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}
