/**
 * `npm run bench -- uploads [rounds]`: 100 parallel 5 MB PDF uploads per round over real HTTP (print
 * MB/s and the server's peak RSS; memory must stay flat because files stream), against bare Fastify with
 * @fastify/multipart streaming the same bodies to disk (the baseline, in its own process, measured in the same
 * run). Folio runs on SQLite with local blobs: every upload is streamed through the size limit and the sniffer to
 * the data directory, and its row is written.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerChild, startServerChild, stopServerChild } from './lib-child.js';
import { UPLOADS_SPACE, UPLOADS_TOKEN } from './lib-uploads-space.js';

const SERVER = join(import.meta.dirname, 'lib-uploads-server.ts');
const PARALLEL = 100;
const FILE_BYTES = 5 * 1024 * 1024;

/** One multipart body (field, token, a 5 MB PDF), built once and sent by every request. */
async function body(): Promise<{ payload: Buffer; contentType: string }> {
  const pdf = Buffer.alloc(FILE_BYTES, 0x20);
  pdf.write('%PDF-1.4\n', 0);
  pdf.write('\n%%EOF\n', FILE_BYTES - 7);
  const form = new FormData();
  form.append('field', 'cv');
  form.append('cf-turnstile-response', 'XXXX.DUMMY.TOKEN.XXXX');
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'cv.pdf');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

async function run(name: string, server: ServerChild, rounds: number): Promise<number> {
  const { payload, contentType } = await body();
  const url = `http://127.0.0.1:${server.info.port}/v1/${UPLOADS_SPACE}/forms/apply/uploads`;
  const headers = { 'content-type': contentType, authorization: `Bearer ${UPLOADS_TOKEN}` };
  const one = async () => {
    const res = await fetch(url, { method: 'POST', body: payload, headers });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${text.slice(0, 200)}`);
  };
  await Promise.all(Array.from({ length: 10 }, one)); // warm-up: JIT, pools
  const started = performance.now();
  for (let r = 0; r < rounds; r++) await Promise.all(Array.from({ length: PARALLEL }, one));
  const seconds = (performance.now() - started) / 1000;
  const report = await stopServerChild(server);
  const uploads = rounds * PARALLEL;
  const mbPerSecond = (uploads * FILE_BYTES) / (1024 * 1024) / seconds;
  console.log(
    `${name.padEnd(28)} ${mbPerSecond.toFixed(0).padStart(5)} MB/s   ${(uploads / seconds).toFixed(1).padStart(6)} uploads/s` +
      `   peak RSS ${String(report.maxRssMb).padStart(4)} MB   CPU ${String(report.cpuMs).padStart(6)} ms   stored ${String(report.stored)}`,
  );
  return mbPerSecond;
}

export default async function bench(args: string[]): Promise<void> {
  const rounds = Number(args[0] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-uploads-'));
  const children: ChildProcess[] = [];
  try {
    console.log(`${PARALLEL} parallel uploads of ${FILE_BYTES / 1024 / 1024} MB, ${rounds} rounds`);
    const bare = await startServerChild(SERVER, ['bare', join(dir, 'bare')]);
    children.push(bare.child);
    const baseline = await run('bare Fastify (baseline)', bare, rounds);
    const folio = await startServerChild(SERVER, ['folio', join(dir, 'folio')]);
    children.push(folio.child);
    const onFolio = await run('Folio (SQLite, local blobs)', folio, rounds);
    console.log(`Folio ${((onFolio / baseline) * 100).toFixed(1)}% of the baseline's MB/s`);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
