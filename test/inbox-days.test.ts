// Days in the space's time zone, as the overview counts them and the inbox page filters by them
// (src/lib/zoned-days.ts, bundled by the page; inbox/src/filters.ts turns a typed date range into instants).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiFilters } from '../inbox/src/filters.js';
import { addDays, lastLocalDays, localDate, startOfLocalDay, zoneOffsetMs } from '../src/lib/zoned-days.js';

/** The offset as Intl reads it for this one instant, nothing kept between calls. */
function intlOffset(timeZone: string, ms: number): number {
  const s = Math.floor(ms / 1000) * 1000;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(s));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - s;
}

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe', // half an hour of daylight saving
  'Asia/Kathmandu',
  'America/Sao_Paulo',
  'Pacific/Apia', // skipped a whole day in 2011
  'America/St_Johns', // changes at 05:30 UTC, within an hour
];

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

  it("a zone's offset, kept for the rest of a steady hour, is what Intl reads at every instant", () => {
    // Near the changes of offset and in between, in order (as an export asks) and at random.
    const changes = [
      '2026-03-29T01:00:00Z',
      '2026-10-25T01:00:00Z',
      '2026-04-05T15:00:00Z',
      '2011-12-30T10:00:00Z',
      '2026-03-08T05:30:00Z', // St. John's
      '1985-12-31T18:30:00Z', // Kathmandu, +05:30 to +05:45
    ];
    const instant = fc.oneof(
      fc.integer({ min: Date.parse('1900-01-01'), max: Date.parse('2100-01-01') }),
      fc
        .constantFrom(...changes)
        .chain((c) => fc.integer({ min: -7_200_000, max: 7_200_000 }).map((d) => Date.parse(c) + d)),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(instant, { minLength: 1, maxLength: 20 }),
        (zone, times) => {
          for (const ms of [...times, ...[...times].sort((a, b) => a - b)])
            expect(zoneOffsetMs(zone, ms)).toBe(intlOffset(zone, ms));
        },
      ),
      { numRuns: 300 },
    );
    // Every 10 seconds of the hours around changes in the middle of a UTC hour, in order.
    for (const [zone, change] of [
      ['America/St_Johns', '2026-03-08T05:30:00Z'],
      ['Asia/Kathmandu', '1985-12-31T18:30:00Z'],
    ] as const) {
      const from = Date.parse(change) - 3_600_000;
      for (let ms = from; ms < from + 7_200_000; ms += 10_000)
        expect(zoneOffsetMs(zone, ms)).toBe(intlOffset(zone, ms));
    }
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
