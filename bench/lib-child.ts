import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A bench server in a process of its own, speaking one JSON object per line on stdout. */
export interface ServerChild {
  child: ChildProcess;
  /** The first line the server printed: `{ port, … }`. */
  info: { port: number } & Record<string, unknown>;
  /** The next line the server prints. */
  next(): Promise<Record<string, unknown>>;
}

/** Node flags for every bench server process: `BENCH_SERVER_FLAGS` (see below), split on spaces. */
export const benchServerFlags = (): string[] =>
  (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter((f) => f !== '');

/** Node's arguments for a bench server: flags, tsx for the bench's own file, dist/ for Folio's, `script`, `args`. */
export function benchServerArgv(
  script: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): string[] {
  const dist = join(import.meta.dirname, 'lib-dist-register.mjs');
  return [...nodeFlags, ...benchServerFlags(), '--import', 'tsx', '--import', dist, script, ...args];
}

/**
 * What `npm start` runs (package.json: `node [flags] bin/folio.js [args]`): its Node flags, for a bench of the
 * embedded default as it ships (docs/operations.md, "Node's young generation"), and its arguments. Throws when the
 * script runs anything else, so a bench or test cannot quietly run something other than the README's command.
 */
export function npmStartCommand(): { nodeFlags: string[]; args: string[] } {
  const pkg: unknown = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
  const start =
    typeof pkg === 'object' && pkg !== null && 'scripts' in pkg
      ? Reflect.get(Object(pkg.scripts), 'start')
      : '';
  const words = String(start).split(' ');
  const bin = words.indexOf('bin/folio.js');
  if (words[0] !== 'node' || bin === -1) throw new Error(`npm start runs something else: ${String(start)}`);
  return { nodeFlags: words.slice(1, bin), args: words.slice(bin + 1) };
}

/**
 * Starts `script` (benchServerArgv, after `nodeFlags`) and waits for its first line. `BENCH_SERVER_FLAGS` adds Node flags
 * to every bench server, after `nodeFlags` (V8 takes a flag's last value), to profile one: `BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench -- entries sqlite`
 * (NODE_OPTIONS refuses --cpu-prof).
 */
export function startServerChild(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
): Promise<ServerChild> {
  const child = spawn(process.execPath, benchServerArgv(script, args, nodeFlags), {
    // stdin: a pipe the server watches, so it ends with this process however that ends (lib-serve.ts).
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(JSON.parse(line) as Record<string, unknown>);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      waiters.push((l) => resolve(JSON.parse(l) as Record<string, unknown>));
    });
  return next().then((info) => ({ child, info: { ...info, port: Number(info.port) }, next }));
}

/**
 * Asks the server to stop (SIGTERM) and answers its report, the first line from now on with `cpuMs`: a server
 * logging at warn (a job that failed under load) prints JSON log lines on stdout too, which are passed over.
 */
export async function stopServerChild(c: ServerChild): Promise<Record<string, unknown>> {
  c.child.kill('SIGTERM');
  for (;;) {
    const line = await c.next();
    if ('cpuMs' in line) return line;
  }
}
