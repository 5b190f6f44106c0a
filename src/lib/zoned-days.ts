// Calendar days in a space's time zone (DESIGN.md: a space has a `timeZone`), as UTC instants. Pure, Intl only:
// the server buckets submissions per day with it and the inbox page (which bundles it) turns a date range typed in
// the space's zone into the instants the API filters on.

import { DAY_MS } from './time.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's wall clock at `ms`, read as if it were UTC: its offset is this minus `ms`. */
function wallClock(timeZone: string, ms: number): number {
  const parts = formatter(timeZone).formatToParts(new Date(ms));
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

/** The zone's offset read from Intl at the whole second `s` (in ms): about 10 µs a call. */
function offsetAtSecond(timeZone: string, s: number): number {
  return wallClock(timeZone, s) - s;
}

const HOUR_MS = 3_600_000;
/** Per zone, the last hour whose offset did not change within it (an export asks in order of time). */
const steadyHours = new Map<string, { hour: number; offset: number }>();

/**
 * The zone's offset from UTC at `ms`, in milliseconds (whole seconds: sub-second offsets do not exist). An hour
 * whose first and last second have the same offset has it throughout (no zone changes its offset twice within an
 * hour), so that offset is kept for the next instant in the same hour: an export of a row a minute reads Intl
 * twice an hour, not once a row.
 */
export function zoneOffsetMs(timeZone: string, ms: number): number {
  if (timeZone === 'UTC') return 0;
  const s = Math.floor(ms / 1000) * 1000;
  const hour = Math.floor(s / HOUR_MS);
  const known = steadyHours.get(timeZone);
  if (known !== undefined && known.hour === hour) return known.offset;
  const first = offsetAtSecond(timeZone, hour * HOUR_MS);
  if (first !== offsetAtSecond(timeZone, (hour + 1) * HOUR_MS - 1000)) return offsetAtSecond(timeZone, s);
  // One entry per zone a space uses: bounded by the zones Intl knows.
  steadyHours.set(timeZone, { hour, offset: first });
  return first;
}

/** `YYYY-MM-DD` of the instant `ms` in the zone. */
export function localDate(timeZone: string, ms: number): string {
  return new Date(ms + zoneOffsetMs(timeZone, ms)).toISOString().slice(0, 10);
}

/**
 * The instant the local day `date` (`YYYY-MM-DD`) starts in the zone: midnight, or the first moment after it
 * where a change of offset skips midnight. Two rounds find the offset in force (DST changes move it by hours).
 */
export function startOfLocalDay(timeZone: string, date: string): number {
  const wall = Date.parse(`${date}T00:00:00.000Z`);
  let guess = wall - zoneOffsetMs(timeZone, wall);
  guess = wall - zoneOffsetMs(timeZone, guess);
  // Midnight skipped (a gap): the day starts where the new offset begins, still on that date.
  return localDate(timeZone, guess) < date ? guess + (wall - (guess + zoneOffsetMs(timeZone, guess))) : guess;
}

/** The date `days` after `date` (negative: before), on the calendar. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The last `count` local days up to and including the one `now` is in: each date and the instant it starts,
 * oldest first, and the instant the day after the last starts (the window's end).
 */
export function lastLocalDays(
  timeZone: string,
  now: number,
  count: number,
): { days: { date: string; start: number }[]; end: number } {
  const today = localDate(timeZone, now);
  const days: { date: string; start: number }[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    days.push({ date, start: startOfLocalDay(timeZone, date) });
  }
  return { days, end: startOfLocalDay(timeZone, addDays(today, 1)) };
}
