import { unavailable } from '../errors/errors.js';

/** How long a refused search is told to wait: the queue drains in well under a second at its default bound. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The bound on query embeddings waiting for the model. A query the vector cache does not hold
 * needs the model: the offline one embeds one text at a time on its thread, an HTTP provider takes what it takes.
 * Without a bound, a burst of distinct queries queued without end (seconds of waiting at p50: docs/operations.md,
 * "Figures behind the code") and nobody was told to come back. Past `max` embeddings in flight a search answers 503 `unavailable` with
 * `Retry-After` at once; a query already being embedded is shared, not counted again (search-service.ts).
 */
export class QueryQueue {
  private pending = 0;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.pending;
  }

  /** Runs `embed` if the queue has room, else throws 503 `unavailable` with `details.retryAfter`. */
  run<T>(embed: () => Promise<T>): Promise<T> {
    if (this.pending >= this.max)
      throw unavailable('Too many searches are waiting for the search model; retry in a second.', {
        details: { retryAfter: RETRY_AFTER_SECONDS },
      });
    this.pending++;
    let made: Promise<T>;
    try {
      made = embed();
    } catch (err) {
      this.pending--;
      throw err;
    }
    return made.finally(() => this.pending--);
  }
}
