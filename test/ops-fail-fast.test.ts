import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL } from './helpers/engines.js';
import { REDIS_URL } from './helpers/edge.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { contactForm, VALID_CONTACT } from './helpers/form-defs.js';
import { BIN, PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { SmtpTestServer } from './helpers/smtp.js';
import { tempDir } from './helpers/temp-dirs.js';

// Operating Folio: a setting the process cannot work with ends it at once with exit code 1 and one line naming
// the variable, nothing keeps running without a listener, SIGTERM ends it within 2 s, and the CLI says which
// version it is and what `migrate` applied.

const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', FOLIO_DEMO: 'false', LOG_LEVEL: 'warn' };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Still running when the bound passed (then killed): the zombie case. */
  hung: boolean;
}

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const close of closers) await close();
});

/** Runs the CLI with `env` over the embedded default; a process still running after `boundMs` is killed. */
function run(args: string[], env: Record<string, string>, boundMs = 30_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...EMBEDDED, ...env } });
    children.push(child);
    let stdout = '';
    let stderr = '';
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, boundMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

describe('failing fast and exiting clean', { timeout: PROCESS_TEST_MS }, () => {
  it('`folio --version` prints package.json version', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const r = await run(['--version'], {});
    expect([r.code, r.stdout.trim()]).toEqual([0, pkg.version]);
  });

  it('`folio migrate` logs each migration it applies and says so; the next run has nothing to do', async () => {
    const dataDir = tempDir('folio-ops-');
    const first = await run(['migrate'], { DATA_DIR: dataDir });
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Migration 0001-initial applied/);
    const applied = lines.filter((l) => l.startsWith('Migration ')).length;
    expect(applied).toBeGreaterThanOrEqual(25);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^Applied ${applied} migrations and \\d+ backfills?; the schema is at`),
    );
    const again = await run(['migrate'], { DATA_DIR: dataDir });
    expect([again.code, again.stdout.trim()]).toEqual([
      0,
      expect.stringMatching(/^Store schema is up to date \(\d{4}-[a-z-]+\); nothing to backfill\.$/),
    ]);
  });

  it('a port already in use: exit 1 with one line, no process left running its jobs', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => taken.close(() => r())));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const r = await run(['serve'], {
      DATA_DIR: tempDir('folio-ops-'),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    // Besides the migrations' lines (a fresh store), one line says why it stopped.
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !/^(Migration|Backfill) /.test(l));
    expect(lines).toEqual([expect.stringMatching(/^Cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/)]);
  });

  it('a Redis database index the server refuses: exit 1 naming REDIS_URL', async () => {
    const r = await run(['serve'], {
      DATA_DIR: tempDir('folio-ops-'),
      PORT: '0',
      REDIS_URL: `${REDIS_URL}/99`,
    });
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /REDIS_URL names a database the Redis server refuses \(ERR DB index is out of range\)/,
    );
  });

  it.each([
    ['sqlite', ''],
    ['postgres', DATABASE_URL],
  ])('a DATA_DIR that cannot be written on %s: exit 1 naming DATA_DIR', async (_engine, url) => {
    const file = join(tempDir('folio-ops-'), 'a-file');
    writeFileSync(file, '');
    for (const command of ['serve', 'worker']) {
      const r = await run([command], { DATA_DIR: join(file, 'data'), PORT: '0', DATABASE_URL: url }, 20_000);
      expect([command, r.hung, r.code]).toEqual([command, false, 1]);
      expect(r.stderr).toContain(`DATA_DIR names ${join(file, 'data')}, which this process cannot write`);
    }
  });

  it('a PostgreSQL that cannot be reached: exit 1 naming DATABASE_URL, never its password', async () => {
    const r = await run(['migrate'], { DATABASE_URL: 'postgres://folio:s3cret-pass@127.0.0.1:1/folio' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1/folio');
    expect(r.stderr).not.toContain('s3cret-pass');
  });

  it('SIGTERM after a notification mail was sent: the process exits within 2 s', async () => {
    const smtp = await SmtpTestServer.start();
    closers.push(() => smtp.close());
    const dataDir = tempDir('folio-ops-');
    const bundle = { ...fixtureBundle(), forms: [contactForm('contact', { notify: ['team@example.com'] })] };
    const dir = await fixtureDir();
    writeFileSync(join(dir, 'ops-bundle.json'), JSON.stringify(bundle));
    expect((await run(['import', join(dir, 'ops-bundle.json')], { DATA_DIR: dataDir })).code).toBe(0);
    const folio = await serveFolio({
      ...EMBEDDED,
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'folio@example.com',
    });
    children.push(folio.child);
    const res = await fetch(`${folio.base}/v1/spc_test/forms/contact/submissions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.public}`, 'content-type': 'application/json' },
      body: JSON.stringify(VALID_CONTACT),
    });
    expect(res.status).toBe(200);
    await smtp.waitFor((m) => m.length >= 1);
    // The job is marked done just after the message is accepted; let that commit.
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const exited = new Promise<number | null>((r) => folio.child.once('exit', (code) => r(code)));
    folio.child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000)),
    ]);
    expect([code, Date.now() - started < 2000]).toEqual([0, true]);
  });
});
