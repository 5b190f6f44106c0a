// How the inbox page reads a list's total: `totalExact: false` (the server stopped counting at its limit) is shown
// as a lower bound in words; an answer without the member (an older server) is exact.

import { describe, expect, it } from 'vitest';
import { plural } from '../inbox/src/format.js';
import { readPage } from '../inbox/src/read.js';

describe('the inbox list total', () => {
  it('reads totalExact, exact when absent or not a boolean false', () => {
    const base = { items: [], nextCursor: null, total: 1000, unread: 0 };
    expect(readPage({ ...base, totalExact: false }).totalExact).toBe(false);
    expect(readPage({ ...base, totalExact: true }).totalExact).toBe(true);
    expect(readPage(base).totalExact).toBe(true);
    expect(readPage({ ...base, totalExact: 'no' }).totalExact).toBe(true);
  });

  it('says "more than" for a lower bound, in the page language', () => {
    expect(plural(1000, 'matchMore')).toBe('More than 1,000 submissions match');
    expect(plural(1000, 'match')).toBe('1,000 submissions match');
  });
});
