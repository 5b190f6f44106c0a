/** Slicers waiting for a slice, first come first served, each with what resumes it. */
const waiting: { slicer: TimeSlicer; resume: () => void }[] = [];
/** The slicer whose slice is running (granted last); it may have finished its work since. */
let current: TimeSlicer | null = null;
/** Whether a grant is due in a coming loop turn. */
let granting = false;

/** Hands the next slice to the first waiting slicer, one per turn of the event loop, and plans the next. */
function grantNext(): void {
  granting = false;
  const next = waiting.shift();
  if (next === undefined) return;
  current = next.slicer;
  next.slicer.sliceStarted = performance.now();
  next.resume();
  if (waiting.length > 0) scheduleGrant();
}

function scheduleGrant(): void {
  if (granting) return;
  granting = true;
  // After I/O: every turn between two slices reads sockets and answers what is quick (a cached read).
  setImmediate(grantNext);
}

/** What a long computation awaits between its steps: a `TimeSlicer`, or in tests anything that counts or yields. */
export interface Slicer {
  tick(): Promise<void>;
}

/**
 * Cuts a long computation into slices of about `sliceMs` of the event loop each: `await slicer.tick()` between
 * steps gives other requests their turn once the slice is spent. Awaiting a query is not enough on SQLite, whose
 * driver runs synchronously (its promises resolve as microtasks, before any socket is read).
 *
 * Slices are granted one per turn of the event loop, to one slicer at a time, in the order they asked: a turn
 * costs one slice (and the step that overran it) however many heavy requests run. When every waiting slicer resumed
 * in the same turn, each ran at least one step before it could see the slice was spent, so four heavy requests
 * cost a waiting read four steps per turn (p99 40–90 ms behind four sitemaps, trees or exports on SQLite). A slicer
 * whose slice runs goes on without yielding; any other slicer's tick waits for its own grant.
 */
export class TimeSlicer implements Slicer {
  /** When this slicer's current slice was granted. */
  sliceStarted = 0;

  /**
   * 5 ms: a read that arrives as a slice starts waits the whole slice and the step that overran it, so the slice
   * is most of a waiting read's latency (10 ms slices put a cached read's p50 at 10–14 ms beside four heavy
   * requests, 5 ms at 6–8 ms), while the heavy requests lose little: a turn between slices costs microseconds.
   */
  constructor(private readonly sliceMs = 5) {}

  async tick(): Promise<void> {
    if (current === this && performance.now() - this.sliceStarted < this.sliceMs) return;
    await new Promise<void>((resume) => {
      waiting.push({ slicer: this, resume });
      scheduleGrant();
    });
  }
}
