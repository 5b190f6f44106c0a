// How the inbox page reads a list's total: `totalExact: false` (the server stopped counting at its limit) is shown
// as a lower bound in words; an answer without the member (an older server) is exact.

import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../inbox/src/i18n/catalogs.js';
import { readPage } from '../inbox/src/read.js';

describe('the inbox list total', () => {
  it('reads totalExact, exact when absent or not a boolean false', () => {
    const base = { items: [], nextCursor: null, total: 1000, unread: 0 };
    expect(readPage({ ...base, totalExact: false }).totalExact).toBe(false);
    expect(readPage({ ...base, totalExact: true }).totalExact).toBe(true);
    expect(readPage(base).totalExact).toBe(true);
    expect(readPage({ ...base, totalExact: 'no' }).totalExact).toBe(true);
  });

  it('has words for a lower bound in every language (the list shows them when totalExact is false)', () => {
    expect(CATALOGS.en.matchMore_other).toBe('More than {n} submissions match');
    for (const catalog of Object.values(CATALOGS)) expect(catalog.matchMore_other).toContain('{n}');
  });
});
