import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the loop is sampled: a stretch shorter than this is seen as at most this long. */
const RESOLUTION_MS = 10;
/** The window reported: the last 30 to 60 s (two histograms, each restarted every minute, half a minute apart). */
export const EVENT_LOOP_WINDOW_MS = 60_000;

export interface EventLoopDelayStats {
  /** Seconds the loop was late beyond the sampling interval: median, 99th percentile, maximum and mean. */
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The event loop's delay over a rolling window, from `monitorEventLoopDelay`: how long a timer due every 10 ms
 * waited, less those 10 ms, so an idle loop reads about 0 and a request that holds the loop for 200 ms reads
 * about 0.2 s. prom-client's own `nodejs_eventloop_lag_*` gauges restart at every scrape (two scrapers each see a
 * part, and a stretch that spans a scrape is lost) and include the 10 ms; these do neither.
 */
export class EventLoopDelay {
  private readonly halves: [IntervalHistogram, IntervalHistogram];
  /** The histogram restarted longer ago, the one reported. */
  private older: 0 | 1 = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(windowMs = EVENT_LOOP_WINDOW_MS) {
    this.halves = [
      monitorEventLoopDelay({ resolution: RESOLUTION_MS }),
      monitorEventLoopDelay({ resolution: RESOLUTION_MS }),
    ];
    for (const h of this.halves) h.enable();
    // Unref'd: sampling never keeps a process alive that has nothing else to do.
    this.timer = setInterval(() => {
      this.halves[this.older].reset();
      this.older = this.older === 0 ? 1 : 0;
    }, windowMs / 2).unref();
  }

  stats(): EventLoopDelayStats {
    const h = this.halves[this.older];
    // No sample yet (a process seconds old): nothing was late.
    if (h.count === 0) return { p50: 0, p99: 0, max: 0, mean: 0 };
    const late = (ns: number) => Math.max(0, ns / 1e9 - RESOLUTION_MS / 1000);
    return { p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), mean: late(h.mean) };
  }

  close(): void {
    clearInterval(this.timer);
    for (const h of this.halves) h.disable();
  }
}
