// Real nginx and Varnish in front of a Folio on loopback, configured from the reference files in deploy/ (only
// the addresses and the file locations changed), for the edge test (test/e2e/cdn.e2e.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './processes.js';
import { tempDir } from './temp-dirs.js';

export interface CacheProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  stop(): Promise<void>;
}

/** Debian puts both in /usr/sbin, which a user's PATH may not hold. */
const binary = (name: string): string => (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : name);

const deploy = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), 'utf8');

async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start within ${ms} ms`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/** Output kept for an error message when a process does not start. */
function captured(child: ChildProcess): () => string {
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => out;
}

/** varnishd in the foreground with deploy/varnish/folio.vcl, its backend pointed at `folioPort`. */
export async function startVarnish(folioPort: number): Promise<CacheProcess> {
  const dir = tempDir('folio-varnish-');
  const port = await freePort();
  const vcl = deploy('varnish/folio.vcl').replace('.port = "3000";', `.port = "${folioPort}";`);
  if (!vcl.includes(`.port = "${folioPort}"`))
    throw new Error('deploy/varnish/folio.vcl names no backend port');
  writeFileSync(join(dir, 'folio.vcl'), vcl);
  // `-j none`: no privilege separation (the test's own temp folder, whoever runs it); `-F`: in the foreground.
  const child = spawn(
    binary('varnishd'),
    [
      '-F',
      '-j',
      'none',
      '-n',
      join(dir, 'work'),
      '-a',
      `127.0.0.1:${port}`,
      '-f',
      join(dir, 'folio.vcl'),
    ].concat(['-s', 'malloc,64m', '-p', 'vcc_allow_inline_c=off']),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = captured(child);
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/healthz`)).status > 0, `varnishd (${output()})`);
  return { base, stop: stopper(child) };
}

/** nginx in the foreground with deploy/nginx/folio.conf, its upstream at `folioPort`, its files in a temp folder. */
export async function startNginx(folioPort: number): Promise<CacheProcess> {
  const dir = tempDir('folio-nginx-');
  const port = await freePort();
  for (const sub of ['cache', 'tmp', 'logs']) mkdirSync(join(dir, sub));
  const site = deploy('nginx/folio.conf')
    .replace('server 127.0.0.1:3000;', `server 127.0.0.1:${folioPort};`)
    .replace('/var/cache/nginx/folio', join(dir, 'cache'))
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  writeFileSync(join(dir, 'folio.conf'), site);
  // The rest of an nginx.conf as Debian ships it, with nothing outside the temp folder.
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'user root;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs', 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${join(dir, 'tmp', 'body')};`,
      `  proxy_temp_path ${join(dir, 'tmp', 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'tmp', 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'tmp', 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'tmp', 'scgi')};`,
      `  include ${join(dir, 'folio.conf')};`,
      '}',
    ].join('\n'),
  );
  const child = spawn(binary('nginx'), ['-c', join(dir, 'nginx.conf'), '-p', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captured(child);
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/healthz`)).status > 0, `nginx (${output()})`);
  return { base, stop: stopper(child) };
}
