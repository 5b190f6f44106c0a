// A per-host bound on concurrent webhook and chat posts: the job runner runs many jobs at once,
// and a burst of submissions must not open hundreds of connections to one receiver at the same moment.

/** Posts in flight to one host (`host:port`) at most, per process. */
export const PER_HOST_LIMIT = 8;

interface HostQueue {
  active: number;
  waiting: (() => void)[];
}

/** Counting semaphores keyed by host; a host without posts in flight or waiting is forgotten. */
export class HostLimiter {
  private readonly hosts = new Map<string, HostQueue>();

  constructor(readonly limit: number) {}

  /**
   * Waits for a free slot for `host` for at most `waitMs`; answers a release function, or null when none came free
   * in time (the caller fails the attempt and the job is retried, well inside its lease).
   */
  acquire(host: string, waitMs: number): Promise<(() => void) | null> {
    let q = this.hosts.get(host);
    if (!q) this.hosts.set(host, (q = { active: 0, waiting: [] }));
    const queue = q;
    const release = (): void => {
      const next = queue.waiting.shift();
      if (next) return next();
      queue.active -= 1;
      if (queue.active === 0) this.hosts.delete(host);
    };
    if (queue.active < this.limit) {
      queue.active += 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve) => {
      const granted = (): void => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(() => {
        const at = queue.waiting.indexOf(granted);
        if (at >= 0) queue.waiting.splice(at, 1);
        resolve(null);
      }, waitMs);
      queue.waiting.push(granted);
    });
  }

  /** Posts in flight to `host` now (tests). */
  active(host: string): number {
    return this.hosts.get(host)?.active ?? 0;
  }
}

/** The process's limiter, shared by webhook deliveries and chat posts. */
export const hostLimiter = new HostLimiter(PER_HOST_LIMIT);
