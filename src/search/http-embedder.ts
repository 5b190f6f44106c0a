import type { EmbeddingsConfig } from '../config/config.js';
import { type Embedder, EmbedderUnavailable, normalize } from './embedder.js';

type HttpConfig = Extract<EmbeddingsConfig, { provider: 'http' }>;

/** Inputs per request: OpenAI takes 2,048; smaller requests keep a slow one within the timeout. */
const BATCH = 64;
const MAX_DIMENSIONS = 8192;

/**
 * An OpenAI-compatible embeddings endpoint (`POST {input, model}` → `{data: [{index, embedding}]}`): OpenAI, Azure,
 * Ollama, vLLM, LM Studio, text-embeddings-inference. Every call is bounded by EMBEDDINGS_TIMEOUT_MS.
 */
export class HttpEmbedder implements Embedder {
  readonly model: string;

  constructor(private readonly config: HttpConfig) {
    this.model = `http:${config.model}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH)
      out.push(...(await this.request(texts.slice(i, i + BATCH))));
    return out;
  }

  private async request(input: readonly string[]): Promise<Float32Array[]> {
    let res: Response;
    try {
      res = await fetch(this.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.apiKey === null ? {} : { authorization: `Bearer ${this.config.apiKey}` }),
        },
        body: JSON.stringify({ model: this.config.model, input, encoding_format: 'float' }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (err) {
      throw new EmbedderUnavailable(`embeddings endpoint unreachable: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new EmbedderUnavailable(`embeddings endpoint answered ${res.status}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch (err) {
      throw new EmbedderUnavailable('embeddings endpoint answered no JSON', { cause: err });
    }
    return parseEmbeddings(body, input.length);
  }

  async close(): Promise<void> {}
}

/** Checks an embeddings answer (parse, don't cast): `count` vectors of one dimension, finite numbers only. */
export function parseEmbeddings(body: unknown, count: number): Float32Array[] {
  const bad = (why: string) => new EmbedderUnavailable(`embeddings endpoint answered ${why}`);
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { data?: unknown }).data))
    throw bad('no `data` array');
  const data: unknown[] = (body as { data: unknown[] }).data;
  if (data.length !== count) throw bad(`${data.length} vectors for ${count} inputs`);
  const out: (Float32Array | undefined)[] = new Array(count);
  let dim = -1;
  for (const [position, item] of data.entries()) {
    if (typeof item !== 'object' || item === null) throw bad('an item that is not an object');
    const { index = position, embedding } = item as { index?: unknown; embedding?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index])
      throw bad('a bad or repeated `index`');
    if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_DIMENSIONS)
      throw bad('an `embedding` that is not a list of numbers');
    if (dim === -1) dim = embedding.length;
    if (embedding.length !== dim) throw bad('vectors of different lengths');
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) {
      const x: unknown = embedding[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) throw bad('a value that is not a finite number');
      v[i] = x;
    }
    out[index] = normalize(v);
  }
  return out.map((v) => v ?? new Float32Array(0));
}
