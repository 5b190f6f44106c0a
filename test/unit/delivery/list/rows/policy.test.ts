import { describe, expect, it } from 'vitest';
import {
  leftToWalk,
  RELOAD_PACE,
  reloadDue,
  RETRY_TOO_LARGE_MS,
  retryDue,
  SORTED_RUN_MAX,
  SORTED_RUN_MIN,
  SORTED_RUNS_PER_ROW,
  sortedRunFits,
  sortedRunsHold,
  sparse,
  SPARSE_TOTAL,
  WALK_OVER_MEMORY,
  walkBeatsSort,
} from '../../../../../src/delivery/list/rows/policy.js';

// The list engine's choices at their thresholds (the thresholds' values and why: policy.ts, docs/operations.md).

describe('the list engine’s thresholds', () => {
  it('leaves a page to the SQL walk only when SQL can walk it and the candidates are many', () => {
    expect(leftToWalk(false, 10 * WALK_OVER_MEMORY)).toBe(false);
    expect(leftToWalk(true, WALK_OVER_MEMORY)).toBe(false);
    expect(leftToWalk(true, WALK_OVER_MEMORY + 1)).toBe(true);
  });

  it('lets SQL sort sparse matches, and walk a number’s index when that reads fewer rows than sorting', () => {
    expect(sparse(SPARSE_TOTAL)).toBe(true);
    expect(sparse(SPARSE_TOTAL + 1)).toBe(false);
    // 21 rows a page: of 100k rows of the type a walk pays from about 1,025 matches on, of a million from 3,241.
    expect([walkBeatsSort(1024, 20, 100_000), walkBeatsSort(1025, 20, 100_000)]).toEqual([false, true]);
    expect([walkBeatsSort(3240, 20, 1_000_000), walkBeatsSort(3241, 20, 1_000_000)]).toEqual([false, true]);
  });

  it('sorts runs of SORTED_RUN_MIN to SORTED_RUN_MAX rows, up to SORTED_RUNS_PER_ROW per row of the table', () => {
    expect(
      [SORTED_RUN_MIN - 1, SORTED_RUN_MIN, SORTED_RUN_MAX, SORTED_RUN_MAX + 1].map(sortedRunFits),
    ).toEqual([false, true, true, false]);
    expect(sortedRunsHold(0, SORTED_RUNS_PER_ROW * 100, 100)).toBe(true);
    expect(sortedRunsHold(1, SORTED_RUNS_PER_ROW * 100, 100)).toBe(false);
  });

  it('paces loads by the time the last one took, and retries a type too large after a while', () => {
    expect(reloadDue(1000, 50, 1000 + 50 * RELOAD_PACE - 1)).toBe(false);
    expect(reloadDue(1000, 50, 1000 + 50 * RELOAD_PACE)).toBe(true);
    expect(retryDue(0, RETRY_TOO_LARGE_MS - 1)).toBe(false);
    expect(retryDue(0, RETRY_TOO_LARGE_MS)).toBe(true);
  });
});
