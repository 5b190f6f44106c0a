// Days in the space's time zone, as the overview counts them and the inbox page filters by them
// (src/lib/zoned-days.ts, bundled by the page; inbox/src/filters.ts turns a typed date range into instants).

import { describe, expect, it } from 'vitest';
import { apiFilters } from '../inbox/src/filters.js';
import { addDays, lastLocalDays, localDate, startOfLocalDay } from '../src/lib/zoned-days.js';

describe('days in a time zone', () => {
  it.each([
    // zone, date, the instant it starts
    ['UTC', '2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z'], // the day the clocks go forward (at 02:00)
    ['Europe/Berlin', '2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '2026-10-24T22:00:00.000Z'], // and back
    ['America/Los_Angeles', '2026-03-08', '2026-03-08T08:00:00.000Z'],
    ['Asia/Kolkata', '2026-03-01', '2026-02-28T18:30:00.000Z'], // half an hour
    ['Asia/Kathmandu', '2026-03-01', '2026-02-28T18:15:00.000Z'], // a quarter
    ['America/Sao_Paulo', '2018-11-04', '2018-11-04T03:00:00.000Z'], // midnight skipped: the day starts at 01:00
  ])('%s: %s starts at %s', (zone, date, start) => {
    const ms = startOfLocalDay(zone, date);
    expect(new Date(ms).toISOString()).toBe(start);
    expect(localDate(zone, ms)).toBe(date);
    expect(localDate(zone, ms - 1)).toBe(addDays(date, -1));
  });

  it('the last n days end with today, each starting where the one before ends', () => {
    const now = Date.parse('2026-03-29T12:00:00.000Z');
    const { days, end } = lastLocalDays('Europe/Berlin', now, 30);
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.date).toBe('2026-03-29');
    expect(days[0]?.date).toBe('2026-02-28');
    expect(new Date(end).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // The day the clocks went forward has 23 hours.
    const last = days.at(-1)?.start ?? 0;
    expect((end - last) / 3_600_000).toBe(23);
  });
});

describe("the inbox page's filters", () => {
  it("turns a date range typed in the space's zone into the instants the API filters on; the last day included", () => {
    const params = new URLSearchParams(
      'from=2026-03-01&to=2026-03-31&status=new&q= ada &unassigned=1&assignee=Bo',
    );
    expect(apiFilters(params, 'Europe/Berlin')).toEqual({
      folder: undefined,
      status: 'new',
      q: 'ada',
      assignee: '',
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-31T22:00:00.000Z',
    });
    expect(apiFilters(new URLSearchParams('folder=spam&from=junk'), 'UTC')).toEqual({
      folder: 'spam',
      status: undefined,
      q: undefined,
      assignee: undefined,
      from: undefined,
      to: undefined,
    });
  });
});
