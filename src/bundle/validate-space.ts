import type { LocaleDef } from '../content/model.js';
import type { CheckedSpace } from './format.js';
import { at, isObject, LOCALE, type Problems, show } from '../lib/problems.js';

const SPACE_ID = /^spc_[A-Za-z0-9_-]{1,64}$/;

/** The bundle's `space`, defaults applied (`ai: false`, `timeZone: "UTC"`, no image presets); undefined when bad. */
export function parseSpace(
  space: unknown,
  p: Problems,
): { space: CheckedSpace | undefined; locales: Set<string> } {
  const before = p.count;
  if (!isObject(space)) {
    p.add('space', 'must be an object');
    return { space: undefined, locales: new Set() };
  }
  const { id, name, ai, timeZone } = space;
  if (typeof id !== 'string' || !SPACE_ID.test(id)) p.add('space.id', 'must be an spc_ id');
  if (typeof name !== 'string' || name === '') p.add('space.name', 'must be a non-empty string');
  if (ai !== undefined && typeof ai !== 'boolean') p.add('space.ai', 'must be true or false');
  if (timeZone !== undefined && !isTimeZone(timeZone))
    p.add('space.timeZone', `${show(timeZone)} is not an IANA time zone`);
  const imagePresets = parsePresets(space.imagePresets, p);
  const { locales, codes } = parseLocales(space.locales, p);
  if (p.count !== before || typeof id !== 'string' || typeof name !== 'string' || !locales)
    return { space: undefined, locales: codes };
  return {
    space: {
      id,
      name,
      ai: ai === true,
      timeZone: typeof timeZone === 'string' ? timeZone : 'UTC',
      locales,
      imagePresets: imagePresets ?? {},
    },
    locales: codes,
  };
}

function isTimeZone(v: unknown): v is string {
  if (typeof v !== 'string' || v === '' || v.length > 100) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

function parsePresets(
  presets: unknown,
  p: Problems,
): Record<string, { width: number; height: number }> | undefined {
  if (presets === undefined) return undefined;
  if (!isObject(presets)) {
    p.add('space.imagePresets', 'must be an object');
    return undefined;
  }
  const out: [string, { width: number; height: number }][] = [];
  for (const [k, v] of Object.entries(presets)) {
    const size = (n: unknown): n is number => Number.isInteger(n) && Number(n) > 0 && Number(n) <= 3840;
    if (isObject(v) && size(v.width) && size(v.height)) out.push([k, { width: v.width, height: v.height }]);
    else p.add(at('space.imagePresets', k), 'must be { width, height } in pixels up to 3840');
  }
  return Object.fromEntries(out);
}

function parseLocales(raw: unknown, p: Problems): { locales: LocaleDef[] | undefined; codes: Set<string> } {
  const codes = new Set<string>();
  if (!Array.isArray(raw) || raw.length === 0) {
    p.add('space.locales', 'must be a non-empty array');
    return { locales: undefined, codes };
  }
  const before = p.count;
  let defaults = 0;
  raw.forEach((l: unknown, i) => {
    const lp = at('space.locales', i);
    if (!isObject(l)) return p.add(lp, 'must be an object { code, default?, fallbacks? }');
    if (typeof l.code !== 'string' || !LOCALE.test(l.code))
      p.add(at(lp, 'code'), 'must be a locale code like "de-ch"');
    else if (codes.has(l.code)) p.add(at(lp, 'code'), `duplicate locale "${l.code}"`);
    else codes.add(l.code);
    if (l.default !== undefined && typeof l.default !== 'boolean')
      p.add(at(lp, 'default'), 'must be true or false');
    if (l.default === true) defaults++;
  });
  if (defaults !== 1) p.add('space.locales', 'exactly one locale must have "default": true');
  const locales: LocaleDef[] = [];
  raw.forEach((l: unknown, i) => {
    if (!isObject(l) || typeof l.code !== 'string') return;
    const locale: LocaleDef = { code: l.code };
    if (typeof l.default === 'boolean') locale.default = l.default;
    if (l.fallbacks !== undefined) {
      const fp = at(at('space.locales', i), 'fallbacks');
      if (!Array.isArray(l.fallbacks)) p.add(fp, 'must be an array of locale codes');
      else {
        l.fallbacks.forEach((f: unknown, j) => {
          if (typeof f !== 'string' || !codes.has(f))
            p.add(at(fp, j), `${show(f)} is not a locale of the space`);
          else if (f === l.code) p.add(at(fp, j), 'a locale cannot fall back to itself');
        });
        locale.fallbacks = l.fallbacks.filter((f): f is string => typeof f === 'string');
      }
    }
    locales.push(locale);
  });
  return { locales: p.count === before ? locales : undefined, codes };
}
