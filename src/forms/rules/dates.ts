// Date and time values of form fields (spec 2.10: date is `YYYY-MM-DD`, time is `HH:MM`). Uses only
// Intl, which browsers have, so the renderer resolves `today` exactly as the server does.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Strict `YYYY-MM-DD` on the proleptic Gregorian calendar: 2026-02-30 and 2026-13-01 are not dates. */
export function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Strict `HH:MM`, 00:00–23:59 (no seconds: browsers send seconds only for sub-minute steps). */
export function isValidTime(text: string): boolean {
  const m = TIME.exec(text);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59;
}

// Formatters are costly to build; a space uses one time zone, so the cache stays tiny.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-US with the Gregorian calendar and Latin digits: a stable parts order we do not rely on anyway.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The calendar date of `now` in `timeZone` as `YYYY-MM-DD` (DESIGN: a space has a `timeZone`; `today`
 * in minDate/maxDate uses it). Throws RangeError for an unknown time zone.
 */
export function todayIn(timeZone: string, now: Date): string {
  const parts = formatterFor(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** A minDate/maxDate setting resolved to a date: `today` becomes the date in `timeZone`. */
export function resolveDateBound(bound: string, timeZone: string, now: Date): string {
  return bound === 'today' ? todayIn(timeZone, now) : bound;
}
