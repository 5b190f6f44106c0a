import type { EmbeddingsConfig } from '../config/config.js';
import { HttpEmbedder } from './http-embedder.js';
import { LocalEmbedder } from './local-embedder.js';

/**
 * What semantic search needs of a model: texts in, unit vectors out. Queries go first (a visitor waits for them);
 * indexing runs in the job runner, never on the request path.
 */
export interface Embedder {
  /** Stored with every vector and with the index state: vectors of another model are never compared. */
  readonly model: string;
  /** One unit-length vector per text, in order. Rejects with `EmbedderUnavailable` when the provider fails. */
  embed(texts: readonly string[], use: 'query' | 'index'): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** The provider failed, timed out or answered something that is not vectors: 503 `unavailable` on a search. */
export class EmbedderUnavailable extends Error {
  override readonly name = 'EmbedderUnavailable';
}

/** The configured provider (EMBEDDINGS_URL set: HTTP; otherwise the model shipped with Folio). */
export function openEmbedder(config: EmbeddingsConfig): Embedder {
  return config.provider === 'http' ? new HttpEmbedder(config) : new LocalEmbedder(config.timeoutMs);
}

const shared = new WeakMap<EmbeddingsConfig, Embedder>();

/**
 * The embedder of a configuration, one per process: the app's searches and the job runner's indexing share one
 * model (and, for the offline one, one thread). Its thread never keeps the process alive.
 */
export function embedderFor(config: EmbeddingsConfig): Embedder {
  let embedder = shared.get(config);
  if (!embedder) shared.set(config, (embedder = openEmbedder(config)));
  return embedder;
}

/** Scales a vector to unit length in place (cosine similarity becomes a dot product); zero stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}
