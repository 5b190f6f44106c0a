// The inbox page in every owner's language. One catalog per language, each with every word of the
// English one and the same placeholders, nothing left in English where a language has its own words, and the
// language chosen from the browser's.

import { describe, expect, it } from 'vitest';
import { CATALOGS, chooseLang, LANGS } from '../inbox/src/i18n/catalogs.js';

const EN: Readonly<Record<string, string>> = CATALOGS.en;
const KEYS = Object.keys(EN).sort();
const placeholders = (s: string) => [...s.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]).sort();
/** Words that are the same in a language as in English (loanwords, codes, names). */
const SAME: Readonly<Record<string, readonly string[]>> = {
  de: ['status', 'spam', 'page', 'unread_one'],
  fr: ['total', 'page', 'note_one', 'note_other', 'notesCount'],
  it: ['spam', 'no', 'file_one', 'file_other', 'spamPercent'],
  es: ['total', 'spam', 'no'],
};

describe('the inbox catalogs', () => {
  it('are en, de, fr, it and es', () => {
    expect([...LANGS].sort()).toEqual(['de', 'en', 'es', 'fr', 'it']);
  });

  it.each(LANGS)('%s has every word of English, none blank, with the same placeholders', (lang) => {
    const catalog: Readonly<Record<string, string>> = CATALOGS[lang];
    expect(Object.keys(catalog).sort()).toEqual(KEYS);
    for (const key of KEYS) {
      const words = catalog[key] ?? '';
      expect([key, words.trim() === '']).toEqual([key, false]);
      expect([key, placeholders(words)]).toEqual([key, placeholders(EN[key] ?? '')]);
    }
  });

  it('have a one and an other form for every count', () => {
    const counts = KEYS.filter((k) => k.endsWith('_one')).map((k) => k.slice(0, -4));
    expect(counts.length).toBeGreaterThan(10);
    for (const c of counts) expect(KEYS).toContain(`${c}_other`);
  });

  it.each(LANGS.filter((l) => l !== 'en'))('%s leaves no English behind', (lang) => {
    const catalog: Readonly<Record<string, string>> = CATALOGS[lang];
    const same = new Set(['appName', 'id', 'daysN', 'status_new', ...(SAME[lang] ?? [])]);
    const left = KEYS.filter((k) => !same.has(k) && catalog[k] === EN[k]);
    expect(left).toEqual([]);
  });

  it('chooses the kept language, else the first the browser prefers that the inbox speaks, else English', () => {
    expect(chooseLang('it', ['de-CH'])).toBe('it');
    expect(chooseLang(null, ['pt-BR', 'de-CH', 'fr'])).toBe('de');
    expect(chooseLang('xx', ['FR-ca'])).toBe('fr');
    expect(chooseLang(null, ['ja'])).toBe('en');
  });
});
