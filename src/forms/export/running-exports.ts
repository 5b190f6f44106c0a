// How many exports one instance streams at once. On PostgreSQL each holds a pooled connection (its cursor) for as
// long as the client reads, so a few slow downloads must not take the pool that every other request needs.

import type { Readable } from 'node:stream';

/** Exports streaming at once per instance; with a pool of 10 connections, 7 stay for everything else. */
export const MAX_RUNNING_EXPORTS = 3;

export class RunningExports {
  private running = 0;

  constructor(private readonly max = MAX_RUNNING_EXPORTS) {}

  get count(): number {
    return this.running;
  }

  /** Takes a slot, or answers false when all are taken. */
  tryAcquire(): boolean {
    if (this.running >= this.max) return false;
    this.running += 1;
    return true;
  }

  release(): void {
    if (this.running > 0) this.running -= 1;
  }

  /** Releases the slot once the body is done: sent, failed, or abandoned by the client ('close' follows each). */
  releaseWhenClosed(stream: Readable): void {
    stream.once('close', () => this.release());
  }
}
