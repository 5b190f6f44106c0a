// The bounded work queue of image derivation: a fixed number run at once, a bounded number
// wait, and concurrent requests for one variant share one run. A burst of distinct variants therefore takes the
// time it takes, not the memory; JSON requests keep the event loop and the rest of the CPU.

import { unavailable } from '../errors/errors.js';

export interface ImageWorkOptions {
  /** Derivations running at once. */
  concurrency: number;
  /** Derivations waiting for a slot; past this a request answers 503 `unavailable`. */
  maxWaiting: number;
}

export class ImageWork {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(private readonly options: ImageWorkOptions) {}

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Whether `key` is being made now: a request for it joins that run instead of starting one. */
  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Runs `work` for `key` once however many ask at the same time; every asker gets its result or its error. */
  run(key: string, work: () => Promise<Buffer>): Promise<Buffer> {
    const shared = this.inFlight.get(key);
    if (shared !== undefined) return shared;
    if (this.running >= this.options.concurrency && this.waiting.length >= this.options.maxWaiting)
      return Promise.reject(unavailable('Too many images are being prepared; retry shortly.'));
    const done = this.slot()
      .then(() => work())
      .finally(() => {
        this.inFlight.delete(key);
        this.release();
      });
    this.inFlight.set(key, done);
    return done;
  }

  private slot(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
