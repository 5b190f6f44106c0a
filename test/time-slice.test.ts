// The time slicer's schedule, observed by loop turn rather than by clock: slices go to one slicer per turn of the
// event loop, in turn, and a turn between two slices lets other callbacks (a cached read's socket) run.
import { afterEach, describe, expect, it } from 'vitest';
import { TimeSlicer } from '../src/lib/time-slice.js';

/** Counts turns of the event loop while it runs: one setImmediate per turn. */
function loopTurns() {
  let turn = 0;
  let running = true;
  const next = () => {
    turn++;
    if (running) setImmediate(next);
  };
  setImmediate(next);
  return {
    get turn() {
      return turn;
    },
    stop() {
      running = false;
    },
  };
}

let turns: ReturnType<typeof loopTurns> | null = null;
afterEach(() => turns?.stop());

/** `steps` steps of one worker, a tick after each; records the turn each step ran in. */
async function worker(
  name: string,
  slicer: TimeSlicer,
  steps: number,
  log: { name: string; turn: number }[],
) {
  for (let i = 0; i < steps; i++) {
    log.push({ name, turn: turns?.turn ?? -1 });
    await slicer.tick();
  }
}

describe('TimeSlicer', () => {
  it('grants a spent slice to one slicer per loop turn, each in turn', async () => {
    turns = loopTurns();
    const log: { name: string; turn: number }[] = [];
    // A slice of 0 ms is spent at every tick: each step is a slice of its own.
    await Promise.all(['a', 'b', 'c'].map((n) => worker(n, new TimeSlicer(0), 4, log)));
    const byTurn = new Map<number, Set<string>>();
    for (const { name, turn } of log.slice(3)) byTurn.set(turn, (byTurn.get(turn) ?? new Set()).add(name));
    // After the first steps (before any tick), no turn runs steps of two slicers.
    for (const names of byTurn.values()) expect(names.size).toBe(1);
    // Round robin: the slices after the first steps go a, b, c, a, b, c, …
    expect(log.slice(3).map((s) => s.name)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('lets a slicer whose slice is not spent go on without yielding', async () => {
    turns = loopTurns();
    const log: { name: string; turn: number }[] = [];
    const slicer = new TimeSlicer(60_000);
    await slicer.tick(); // granted a slice (one turn)
    const at = turns.turn;
    await worker('a', slicer, 50, log);
    expect(log.every((s) => s.turn === at)).toBe(true);
  });

  it('gives other callbacks a turn between two slices', async () => {
    turns = loopTurns();
    const order: string[] = [];
    const slicer = new TimeSlicer(0);
    await slicer.tick();
    order.push('slice 1');
    setImmediate(() => order.push('other'));
    await slicer.tick();
    order.push('slice 2');
    expect(order).toEqual(['slice 1', 'other', 'slice 2']);
  });
});
