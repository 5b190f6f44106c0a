// How values are shown: times in the space's time zone, links only for http(s) addresses.

const formats = new Map<string, Intl.DateTimeFormat>();

/** A stored timestamp in the space's zone, e.g. "15 Mar 2026, 13:00". */
export function formatTime(iso: string | null, timeZone: string): string {
  if (iso === null || iso === '') return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    formats.set(timeZone, f);
  }
  return f.format(ms);
}

/** The address as a link target when it is an http(s) URL; null otherwise (`javascript:` is never a link). */
export function safeHref(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
