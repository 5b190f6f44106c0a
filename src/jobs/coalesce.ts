/**
 * Gathers the small writes of concurrent callers (a job's completion, a message's `sent` record) for a few
 * milliseconds and makes them one statement: under a burst each write cost a statement and a commit of its own,
 * which was most of the job runner's CPU. Each caller's promise settles when the write holding its item did, so
 * a caller still goes on only once its write is durable; a failed write fails every caller of that batch.
 */
export class Coalescer<T, R = void> {
  private pending: { item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** Writes a batch; answers one result per item, in order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly opts: { delayMs: number; max: number },
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.opts.max) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.opts.delayMs);
    });
  }

  /** Writes what waits now (a stopping runner calls it rather than wait for the timer). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      const results = await this.write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i] as R));
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }
}
