import { localeChain, defaultLocale } from '../content/locales.js';
import type { SpaceSettings, TypeMap } from '../content/model.js';
import { cvExpired as cvExpiredError, type FolioError, invalidQuery } from '../errors/errors.js';

export interface CommonParams {
  locale: string;
  chain: string[];
  include: Set<string>;
  fields: Set<string> | undefined;
  cv: number | undefined;
  draft: boolean;
  release: string | undefined;
}

export const COMMON_PARAMS = ['locale', 'include', 'fields', 'cv', 'draft', 'release'] as const;

type Query = Record<string, unknown>;

/** One string value of a query parameter; repeated parameters are ambiguous and rejected. */
export function single(query: Query, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalidQuery(`Parameter "${name}" must be given once.`, name);
  return v;
}

/**
 * Unknown parameters are rejected (400) rather than ignored: a typo answers an error instead of silently
 * different content, and cache keys cannot be multiplied with junk parameters.
 */
export function rejectUnknown(query: Query, allowed: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (name !== 'token' && !allowed.includes(name)) throw invalidQuery(`Unknown parameter "${name}".`, name);
  }
}

const list = (raw: string | undefined): string[] =>
  raw === undefined
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

export function parseLocale(query: Query, settings: SpaceSettings): { locale: string; chain: string[] } {
  const requested = single(query, 'locale');
  const locale = requested ?? defaultLocale(settings);
  if (!settings.locales.some((l) => l.code === locale)) {
    throw invalidQuery(
      `Unknown locale "${locale}"; this space has ${settings.locales.map((l) => l.code).join(', ')}.`,
      'locale',
    );
  }
  return { locale, chain: localeChain(settings, locale) };
}

export function parseCommon(query: Query, settings: SpaceSettings): CommonParams {
  const { locale, chain } = parseLocale(query, settings);
  const cvRaw = single(query, 'cv');
  let cv: number | undefined;
  if (cvRaw !== undefined) {
    if (!/^[1-9]\d{0,9}$/.test(cvRaw)) throw invalidQuery('Parameter "cv" must be a positive integer.', 'cv');
    cv = Number(cvRaw);
  }
  const draftRaw = single(query, 'draft');
  if (
    draftRaw !== undefined &&
    draftRaw !== '1' &&
    draftRaw !== '0' &&
    draftRaw !== 'true' &&
    draftRaw !== 'false'
  ) {
    throw invalidQuery('Parameter "draft" must be 1 or 0.', 'draft');
  }
  const draft = draftRaw === '1' || draftRaw === 'true';
  const release = single(query, 'release');
  if (release !== undefined && !/^rel_[A-Za-z0-9_-]{1,64}$/.test(release)) {
    throw invalidQuery('Parameter "release" must be a release id (rel_…).', 'release');
  }
  if (draft && release !== undefined) throw invalidQuery('Use draft or release, not both.', 'release');
  if (cv !== undefined && (draft || release !== undefined)) {
    throw invalidQuery('cv pins published content; it cannot be combined with draft or release.', 'cv');
  }
  const fieldsList = list(single(query, 'fields'));
  return {
    locale,
    chain,
    include: new Set(list(single(query, 'include'))),
    fields: single(query, 'fields') === undefined ? undefined : new Set(fieldsList),
    cv,
    draft,
    release,
  };
}

/** `include` names reference fields and `fields` names root fields; names no type has are errors. */
export function checkFieldNames(params: CommonParams, types: TypeMap): void {
  const all = [...types.values()];
  for (const key of params.include) {
    const isRef = all.some((t) => t.fields.some((f) => f.key === key && f.type === 'reference'));
    if (!isRef) throw invalidQuery(`include: "${key}" is not a reference field of any type.`, 'include');
  }
  for (const key of params.fields ?? []) {
    const isRoot = all.some((t) => t.kind !== 'block' && t.fields.some((f) => f.key === key));
    if (!isRoot) throw invalidQuery(`fields: "${key}" is not a field of any entry type.`, 'fields');
  }
}

export const cvExpired = (cv: number, minCv: number): FolioError =>
  cvExpiredError(`cv ${cv} is older than the oldest kept version (${minCv}); request a current cv.`, {
    details: { oldestCv: minCv },
  });

/** A comma-separated `keys` parameter (globals, menus): distinct, non-empty, at most `max`. */
export function parseKeys(raw: string, what: string, max: number): string[] {
  const keys = [
    ...new Set(
      raw
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
    ),
  ];
  if (keys.length === 0) throw invalidQuery(`Parameter "keys" names no ${what}.`, 'keys');
  if (keys.length > max)
    throw invalidQuery(`Parameter "keys" names at most ${max} ${what}s (spec 8).`, 'keys');
  return keys;
}
