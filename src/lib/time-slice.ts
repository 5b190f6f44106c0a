import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * Cuts a long computation into slices of about `sliceMs` of the event loop each: `await slicer.tick()` between
 * steps gives other requests their turn once the slice is spent. Awaiting a query is not enough on SQLite, whose
 * driver runs synchronously (its promises resolve as microtasks, before any socket is read).
 */
export class TimeSlicer {
  private started = performance.now();

  constructor(private readonly sliceMs = 10) {}

  async tick(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await yieldToLoop();
    this.started = performance.now();
  }
}
