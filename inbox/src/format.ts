// How values are shown: times in the space's time zone and the page's language (relative, with the exact time
// for a title), links only for http(s) addresses, reply links for visitors' addresses.

import { currentLang, tn } from './i18n/index.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** A stored timestamp in the space's zone, e.g. "15 Mar 2026, 13:00" (in the page's language). */
export function formatTime(iso: string | null, timeZone: string): string {
  if (iso === null || iso === '') return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const key = `${currentLang()} ${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(currentLang(), { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    formats.set(key, f);
  }
  return f.format(ms);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 hours ago", "yesterday" (in the page's language); under a minute "just now". */
export function relativeTime(iso: string, now: number): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const diff = ms - now;
  const rtf = new Intl.RelativeTimeFormat(currentLang(), { numeric: 'auto' });
  for (const [unit, size] of UNITS)
    if (Math.abs(diff) >= size) return rtf.format(Math.round(diff / size), unit);
  return rtf.format(0, 'second');
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

/**
 * A reply to a visitor's address: `mailto:` with `Re: <form name>` as the subject. Null unless the value is one
 * plain address (no second address, header or line break can ride along: it is percent-encoded whole).
 */
export function replyHref(address: unknown, formName: string): string | null {
  if (typeof address !== 'string') return null;
  const a = address.trim();
  if (!/^[^\s@,;:<>()[\]\\"]+@[^\s@,;:<>()[\]\\"]+\.[^\s@,;:<>()[\]\\"]+$/u.test(a)) return null;
  return `mailto:${encodeURIComponent(a).replace(/%40/g, '@')}?subject=${encodeURIComponent(`Re: ${formName}`)}`;
}

/** A count with its noun, in the page's language (`submission_one` / `submission_other` in the catalogs). */
export const plural = (n: number, key: string, params: Record<string, string> = {}): string =>
  tn(key, n, params);
