/** A cached answer: its validator and its JSON text (parsed anew on every hit, so callers never share objects). */
export interface CachedAnswer {
  etag: string;
  text: string;
}

/**
 * A small least-recently-used store of answers by URL and token, for `If-None-Match` revalidation (docs/api.md
 * "Response cache and conditional requests": every cached 200 carries a strong ETag; a match answers 304 with no
 * body). A `Map` keeps insertion order, so the first key is the least recently used one.
 */
export class EtagCache {
  private readonly answers = new Map<string, CachedAnswer>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.answers.size;
  }

  get(key: string): CachedAnswer | undefined {
    const answer = this.answers.get(key);
    if (answer !== undefined) {
      this.answers.delete(key);
      this.answers.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: CachedAnswer): void {
    this.answers.delete(key);
    this.answers.set(key, answer);
    while (this.answers.size > this.maxEntries) {
      const oldest = this.answers.keys().next();
      if (oldest.done === true) break;
      this.answers.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.answers.delete(key);
  }

  clear(): void {
    this.answers.clear();
  }
}

/** The cache key: the token (answers differ per token: previews, origins) and the full URL. */
export const cacheKey = (token: string, url: string): string => `${token}\n${url}`;
