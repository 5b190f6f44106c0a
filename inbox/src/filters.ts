// The list's filters as the address holds them (dates in the space's zone, options as `o.<field>=<value>`, `sort`)
// and as the API takes them.

import { addDays, startOfLocalDay } from '../../src/lib/zoned-days.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An option filter in the address: `o.<field key>`. */
export const OPTION_PARAM = /^o\.([A-Za-z0-9_-]{1,64})$/;

/** The API's filter parameters: a date range typed in the space's zone becomes the instants it spans. */
export function apiFilters(params: URLSearchParams, timeZone: string): Record<string, string | undefined> {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const text = (name: string) => {
    const v = params.get(name)?.trim() ?? '';
    return v === '' ? undefined : v;
  };
  const out: Record<string, string | undefined> = {
    folder: params.get('folder') === 'spam' ? 'spam' : undefined,
    status: text('status'),
    q: text('q'),
    assignee: params.get('unassigned') === '1' ? '' : text('assignee'),
    from: DATE.test(from) ? new Date(startOfLocalDay(timeZone, from)).toISOString() : undefined,
    // The day typed is included: the range ends where the next day starts.
    to: DATE.test(to) ? new Date(startOfLocalDay(timeZone, addDays(to, 1))).toISOString() : undefined,
  };
  for (const [name, value] of params) {
    const m = OPTION_PARAM.exec(name);
    if (m && value !== '') out[`field[${m[1]}]`] = value;
  }
  return out;
}

/** The list's order: `sort=oldest` in the address. */
export const apiSort = (params: URLSearchParams): string | undefined =>
  params.get('sort') === 'oldest' ? 'createdAt' : undefined;

/** The same filters as a bulk call's `filter` object (strings only, unset ones left out). */
export function filterObject(filters: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(filters)) if (v !== undefined) out[k] = v;
  return out;
}
