// The inbox's words in the owner's language: one catalog per language (en, de, fr, it, es), the
// language chosen from the browser and switchable (kept in this browser), dates and relative times in it.
// English is the reference: every other catalog has its keys (the type checks it, test/inbox-catalogs.test.ts
// checks words and placeholders).

import { CATALOGS, chooseLang, type Lang } from './catalogs.js';
import type { MessageKey } from './en.js';

export type { MessageKey } from './en.js';
export { LANG_NAMES, LANGS, type Lang } from './catalogs.js';

const STORAGE_KEY = 'folio-inbox-lang';

let current: Lang = 'en';

export function currentLang(): Lang {
  return current;
}

export function setLang(lang: Lang, keep: boolean): void {
  current = lang;
  document.documentElement.lang = lang;
  if (keep) localStorage.setItem(STORAGE_KEY, lang);
}

export function initialLang(): Lang {
  return chooseLang(localStorage.getItem(STORAGE_KEY), navigator.languages ?? [navigator.language]);
}

type Params = Record<string, string | number>;

function fill(words: string, params: Params): string {
  return words.replace(/\{([A-Za-z]+)\}/g, (m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

/** The words of `key` in the current language, `{name}` placeholders filled. */
export function t(key: MessageKey, params: Params = {}): string {
  return fill(CATALOGS[current][key], params);
}

const pluralRules = new Map<Lang, Intl.PluralRules>();

/** A count's words: `<key>_one` or `<key>_other` by the language's plural rules, `{n}` the count. */
export function tn(key: string, n: number, params: Params = {}): string {
  let rules = pluralRules.get(current);
  if (!rules) pluralRules.set(current, (rules = new Intl.PluralRules(current)));
  const catalog: Readonly<Record<string, string>> = CATALOGS[current];
  const words = catalog[`${key}_${rules.select(n)}`] ?? catalog[`${key}_other`] ?? key;
  return fill(words, { ...params, n: new Intl.NumberFormat(current).format(n) });
}
