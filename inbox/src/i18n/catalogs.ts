// The catalogs and the choice of a language, without the page (no DOM): test/inbox-catalogs.test.ts reads them.

import { de } from './de.js';
import { type Catalog, en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';

export const LANGS = ['en', 'de', 'fr', 'it', 'es'] as const;
export type Lang = (typeof LANGS)[number];
export const CATALOGS: Record<Lang, Catalog> = { en, de, fr, it, es };
/** Each language's name in itself, for the switcher. */
export const LANG_NAMES: Record<Lang, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
};

export const isLang = (v: unknown): v is Lang =>
  typeof v === 'string' && (LANGS as readonly string[]).includes(v);

/** The language kept in this browser, else the first of the browser's languages the inbox speaks, else English. */
export function chooseLang(kept: string | null, preferred: readonly string[]): Lang {
  if (isLang(kept)) return kept;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}
