/**
 * `npm run bench -- slow-body`: how long a request body trickled over a raw socket holds a
 * connection, and whether an early error stops the reading. Folio in a process of its own (SQLite) with a public
 * form; three connections at once, each capped at 65 s:
 *   A. a submission trickled at 1 byte every 20 s (the attack the body timeouts bound) with a valid token;
 *   B. a submission trickled at 1 byte a second (never idle long) with a valid token, `REQUEST_TIMEOUT_MS=30000`;
 *   C. the same body with a bad token: when the 401 arrives, and whether the server then closes the connection
 *      or keeps reading (the bytes the client could still send after the 401).
 * Prints, per connection, the status the server answered (if any), when, and when it closed the connection.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServerChild, stopServerChild, type ServerChild } from './lib-child.js';

const SERVER = join(import.meta.dirname, 'lib-spend-server.ts');
const SPACE = 'spc_bench_slow';
const TOKEN = 'folio_pub_BenchSlowBodyToken000000001';
const CAP_MS = 65_000;
const BODY_BYTES = 200;

const BUNDLE = {
  format: 'folio-bundle@1',
  space: { id: SPACE, name: 'Slow bodies', locales: [{ code: 'en', default: true }] },
  tokens: [{ kind: 'public', value: TOKEN }],
  forms: [
    {
      key: 'contact',
      name: 'Contact',
      fields: [{ key: 'message', type: 'textarea', label: 'Message', maxLength: 2000 }],
      settings: { successMessage: { en: 'Thanks!' } },
    },
  ],
};

interface Trickled {
  /** The status line's code, or null when the server answered nothing. */
  status: number | null;
  answeredMs: number | null;
  /** When the server closed the connection; null: still open at the cap (the bench closed it). */
  closedMs: number | null;
  /** Body bytes the client wrote after the answer arrived, before the connection closed. */
  sentAfterAnswer: number;
}

/** Sends the head of a JSON submission, then one body byte every `everyMs`, until the server answers and closes. */
function trickle(port: number, token: string, everyMs: number): Promise<Trickled> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const out: Trickled = { status: null, answeredMs: null, closedMs: null, sentAfterAnswer: 0 };
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    const body = `{"message":"${'x'.repeat(BODY_BYTES - 15)}"}`;
    const tick = () => {
      if (sent >= body.length || socket.destroyed) return;
      socket.write(body[sent] ?? 'x', (err) => {
        if (!err && out.answeredMs !== null) out.sentAfterAnswer++;
      });
      sent++;
    };
    const timer = setInterval(tick, everyMs);
    const cap = setTimeout(() => finish(null), CAP_MS);
    let finished = false;
    const finish = (closedMs: number | null) => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      clearTimeout(cap);
      out.closedMs = closedMs;
      socket.destroy();
      resolve(out);
    };
    socket.on('connect', () => {
      socket.write(
        [
          `POST /v1/${SPACE}/forms/contact/submissions HTTP/1.1`,
          'Host: 127.0.0.1',
          `Authorization: Bearer ${token}`,
          'Content-Type: application/json',
          'Accept: application/json',
          `Content-Length: ${body.length}`,
          '',
          '',
        ].join('\r\n'),
      );
      tick();
    });
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (m && out.status === null) {
        out.status = Number(m[1]);
        out.answeredMs = performance.now() - t0;
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(performance.now() - t0));
  });
}

const s = (ms: number | null): string => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);

function print(label: string, r: Trickled): void {
  console.log(
    `${label}: answered ${r.status ?? 'nothing'} at ${s(r.answeredMs)}, connection ${
      r.closedMs === null
        ? `still open at ${s(CAP_MS)} (the cap)`
        : `closed by the server at ${s(r.closedMs)}`
    }${r.status !== null && r.status !== 200 ? `, ${r.sentAfterAnswer} body bytes accepted after the answer` : ''}`,
  );
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-slow-'));
  let server: ServerChild | null = null;
  try {
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'bundle.json'), JSON.stringify(BUNDLE));
    server = await startServerChild(SERVER, [join(dir, 'data'), join(dir, 'bundle')], {
      REQUEST_TIMEOUT_MS: '30000',
    });
    const port = server.info.port;
    console.log(`a ${BODY_BYTES}-byte submission body, trickled; REQUEST_TIMEOUT_MS=30000, the rest default`);
    const [idle, steady, bad] = await Promise.all([
      trickle(port, TOKEN, 20_000),
      trickle(port, TOKEN, 1_000),
      trickle(port, 'folio_pub_NotARealToken0000000000001', 2_000),
    ]);
    print('A. 1 byte / 20 s, valid token', idle);
    print('B. 1 byte / s, valid token    ', steady);
    print('C. 1 byte / 2 s, bad token    ', bad);
  } finally {
    if (server) await stopServerChild(server).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
