/**
 * `npm run bench -- notify [seconds] [submissions/s] [both|in-process|worker] [--burner]` (default 60 s at
 * 100/s, both modes; e.g. `notify 10` for a quick check): how soon notifications arrive under a steady load. Folio
 * (`folio serve` on SQLite, with the job runner in process, and again with FOLIO_WORKER=off beside one `folio
 * worker` process on the same file) takes submissions at a fixed rate; each sends two owner emails to a loopback
 * SMTP server, a chat post and a signed `form.submitted` webhook to loopback HTTP receivers, all in this process. A
 * message's delay runs from the moment its submission was posted (the commit is before the 200, so this overstates
 * the delay by the request's own latency) to its arrival at the receiver. Beside the delays: Folio's CPU per message
 * delivered (server and worker processes, POST handling included). The baseline, in the same run: a bare
 * nodemailer pool (as many connections as Folio's default SMTP_CONNECTIONS, in a process of its own) sending the
 * same number of emails at the same rate to the same SMTP server, its delay from `sendMail` to arrival and its CPU
 * per email. `--burner`: a child process spins one core through every run, as other work on a shared host would.
 * Target: every message arrives, p99 ≤ 2 s, each exactly once; ≤ 0.5 ms of CPU per message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { DEFAULT_SMTP_CONNECTIONS } from '../src/forms/notify/mailer.js';
import { startBurner } from './lib-burner.js';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import { NOTIFY_SPACE, NOTIFY_TOKEN } from './lib-notify-space.js';

const SERVER = join(import.meta.dirname, 'lib-notify-server.ts');
const WORKER = join(import.meta.dirname, 'lib-notify-worker.ts');
const BASELINE = join(import.meta.dirname, 'lib-notify-baseline.ts');
/** The CPU per message delivered the issue asks for (server and worker together). */
const CPU_TARGET_MS = 0.5;

/** Where the jobs run: in `folio serve` (the embedded default), or in one `folio worker` beside it. */
type Mode = 'in-process' | 'worker';
/** How long the bench waits for stragglers after the last submission before it counts them lost. */
const DRAIN_MS = 30_000;

type Channel = 'email' | 'chat' | 'webhook';

/** Arrivals by submission number and channel; a second arrival of the same message is a duplicate. */
class Arrivals {
  readonly delays: Record<Channel, number[]> = { email: [], chat: [], webhook: [] };
  readonly seen = new Map<string, number>();
  duplicates = 0;
  unmatched = 0;
  last = 0;
  constructor(private readonly sentAt: (n: number) => number | undefined) {}

  arrive(channel: Channel, body: string, recipient = ''): void {
    const now = performance.now();
    const m = /\[\[bench:(\d+)\]\]/.exec(body.replace(/=\r?\n/g, ''));
    const sent = m ? this.sentAt(Number(m[1])) : undefined;
    if (!m || sent === undefined) {
      this.unmatched += 1;
      return;
    }
    const key = `${channel}:${m[1]}:${recipient}`;
    const times = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, times);
    if (times > 1) {
      this.duplicates += 1;
      return;
    }
    this.delays[channel].push(now - sent);
    this.last = now;
  }

  count(): number {
    return this.delays.email.length + this.delays.chat.length + this.delays.webhook.length;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(name: string, delays: readonly number[], expected: number, seconds: number): string {
  const sorted = [...delays].sort((a, b) => a - b);
  const ms = (v: number) => `${Math.round(v)}`.padStart(6);
  return (
    `${name.padEnd(30)} ${String(delays.length).padStart(6)}/${String(expected).padEnd(6)} ` +
    `p50 ${ms(percentile(sorted, 50))} ms  p99 ${ms(percentile(sorted, 99))} ms  max ${ms(sorted.at(-1) ?? NaN)} ms` +
    `  ${(delays.length / seconds).toFixed(0).padStart(5)} msg/s`
  );
}

/** The loopback SMTP server: reads each message whole and hands its text to `onMessage`. */
async function startSmtp(
  onMessage: (raw: string, to: string) => void,
): Promise<{ server: SMTPServer; url: string }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    maxClients: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        onMessage(
          Buffer.concat(chunks).toString('utf8'),
          session.envelope.rcptTo.map((r) => r.address).join(','),
        );
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { server, url: `smtp://127.0.0.1:${port}` };
}

/** A loopback HTTP receiver answering 200 to every POST; `/chat` and `/hooks` tell the channels apart. */
async function startReceiver(
  onPost: (path: string, body: string) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onPost(req.url ?? '', Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Calls `tick(i)` at `rate` per second for `seconds`, on schedule (a late tick does not push the next ones). */
async function atRate(rate: number, seconds: number, tick: (i: number) => void): Promise<void> {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    tick(i);
  }
}

async function settle(done: () => boolean): Promise<void> {
  const until = Date.now() + DRAIN_MS;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

async function folioRun(seconds: number, rate: number, mode: Mode): Promise<void> {
  const sentAt = new Map<number, number>();
  const arrivals = new Arrivals((n) => sentAt.get(n));
  const smtp = await startSmtp((raw, to) => arrivals.arrive('email', raw, to));
  const http = await startReceiver((path, body) =>
    arrivals.arrive(path.startsWith('/chat') ? 'chat' : 'webhook', body),
  );
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-notify-'));
  let server: ServerChild | null = null;
  let worker: ServerChild | null = null;
  try {
    server = await startServerChild(SERVER, [
      dir,
      smtp.url,
      `${http.url}/chat`,
      `${http.url}/hooks`,
      ...(mode === 'worker' ? ['worker'] : []),
    ]);
    // The worker opens the store the server made (migrated, the bundle imported).
    if (mode === 'worker') worker = await startServerChild(WORKER, [dir, smtp.url]);
    const url = `http://127.0.0.1:${server.info.port}/v1/${NOTIFY_SPACE}/forms/contact/submissions`;
    const latencies: number[] = [];
    let failed = 0;
    const posts: Promise<void>[] = [];
    await atRate(rate, seconds, (i) => {
      const started = performance.now();
      sentAt.set(i, started);
      posts.push(
        fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${NOTIFY_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            message: `[[bench:${i}]] Hello! I would like to know more about the analytical engine.`,
          }),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            if (res.status !== 200) failed += 1;
            latencies.push(performance.now() - started);
          },
          () => void (failed += 1),
        ),
      );
    });
    await Promise.all(posts);
    const accepted = sentAt.size - failed;
    const expected = { email: 2 * accepted, chat: accepted, webhook: accepted };
    const all = expected.email + expected.chat + expected.webhook;
    await settle(() => arrivals.count() >= all);
    const report = await stopServerChild(server);
    server = null;
    const workerReport = worker ? await stopServerChild(worker) : null;
    worker = null;
    const first = Math.min(...sentAt.values());
    const span = (arrivals.last - first) / 1000;
    const lat = [...latencies].sort((a, b) => a - b);
    console.log(
      `Folio on SQLite, jobs ${mode === 'worker' ? 'in one folio worker process' : 'in the server process'}: ` +
        `${accepted} of ${sentAt.size} submissions accepted (${failed} failed), ` +
        `POST p50 ${Math.round(percentile(lat, 50))} ms p99 ${Math.round(percentile(lat, 99))} ms, ` +
        `server CPU ${String(report.cpuMs)} ms` +
        (workerReport ? `, worker CPU ${String(workerReport.cpuMs)} ms` : '') +
        `, peak RSS ${String(report.maxRssMb)} MB`,
    );
    const cpuMs = Number(report.cpuMs) + Number(workerReport?.cpuMs ?? 0);
    const perMessage = cpuMs / Math.max(1, arrivals.count());
    console.log(
      `  CPU per message delivered ${perMessage.toFixed(2)} ms (server${workerReport ? ' + worker' : ''}, ` +
        `POST handling included; ${(cpuMs / Math.max(1, accepted)).toFixed(2)} ms per submission); ` +
        `target ≤ ${CPU_TARGET_MS} ms: ${perMessage <= CPU_TARGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log(summary('  owner emails (SMTP)', arrivals.delays.email, expected.email, span));
    console.log(summary('  chat posts', arrivals.delays.chat, expected.chat, span));
    console.log(summary('  webhooks (form.submitted)', arrivals.delays.webhook, expected.webhook, span));
    const every = [...arrivals.delays.email, ...arrivals.delays.chat, ...arrivals.delays.webhook];
    console.log(summary('  every message', every, all, span));
    const p99 = percentile(
      [...every].sort((a, b) => a - b),
      99,
    );
    console.log(
      `  duplicates ${arrivals.duplicates}, unmatched ${arrivals.unmatched}, missing ${all - every.length}; ` +
        `target p99 ≤ 2000 ms with every message once: ` +
        (p99 <= 2000 && every.length === all && arrivals.duplicates === 0 ? 'met' : 'NOT met'),
    );
  } finally {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    http.server.closeAllConnections();
    await new Promise<void>((resolve) => http.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same emails, at the same rate, from a bare nodemailer pool in a process of its own to the same kind of
 * loopback SMTP server. The child sends tick `i` at `startAt + i / rate` (epoch ms), which is when its delay starts.
 */
async function baselineRun(seconds: number, rate: number): Promise<void> {
  const startAt = performance.timeOrigin + performance.now() + 2000;
  const tickAt = (n: number) => startAt - performance.timeOrigin + (n * 1000) / rate;
  const total = Math.round(rate * seconds);
  const arrivals = new Arrivals((n) => (Number.isInteger(n) && n >= 0 && n < total ? tickAt(n) : undefined));
  const smtp = await startSmtp((raw, to) => arrivals.arrive('email', raw, to));
  let child: ServerChild | null = null;
  try {
    child = await startServerChild(BASELINE, [smtp.url, String(rate), String(seconds), String(startAt)]);
    const report = await child.next();
    child = null;
    const failed = Number(report.failed);
    const expected = 2 * total - failed;
    await settle(() => arrivals.count() >= expected);
    const span = (arrivals.last - tickAt(0)) / 1000;
    const perEmail = Number(report.cpuMs) / Math.max(1, arrivals.count());
    console.log(
      `Baseline: bare nodemailer pool (${DEFAULT_SMTP_CONNECTIONS} connections, a process of its own), ` +
        `${failed} failed, CPU ${String(report.cpuMs)} ms, ${perEmail.toFixed(2)} ms per email`,
    );
    console.log(summary('  emails (SMTP)', arrivals.delays.email, expected, span));
  } finally {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  }
}

export default async function bench(argv: string[]): Promise<void> {
  const burner = argv.includes('--burner');
  const args = argv.filter((a) => a !== '--burner');
  const seconds = Number(args[0] ?? process.env.BENCH_NOTIFY_SECONDS ?? 60);
  const rate = Number(args[1] ?? 100);
  const which = args[2] ?? 'both';
  if (!(seconds > 0) || !(rate > 0) || !['both', 'in-process', 'worker'].includes(which))
    throw new Error(
      'usage: npm run bench -- notify [seconds] [submissions/s] [both|in-process|worker] [--burner]',
    );
  console.log(
    `${rate} submissions/s for ${seconds} s; each: 2 owner emails, 1 chat post, 1 webhook (${4 * rate} messages/s)` +
      (burner ? '; a one-core CPU burner runs beside every run' : ''),
  );
  const burn = burner ? startBurner() : null;
  try {
    await baselineRun(seconds, rate);
    for (const mode of ['in-process', 'worker'] as const)
      if (which === 'both' || which === mode) await folioRun(seconds, rate, mode);
  } finally {
    burn?.stop();
  }
}
