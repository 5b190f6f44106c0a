// Message catalogs by code (spec 7.4 "clients translate by code"): what visitors read, for the
// languages Folio ships. Browser-safe: renderForm, the enhancer and the server's own HTML result page take their
// words from here, so the three always say the same thing in the same language.

import { DE } from './de.js';
import { type Catalog, EN, type MessageCode } from './en.js';
import { ES } from './es.js';
import { FR } from './fr.js';
import { IT } from './it.js';

export type { Catalog, MessageCode };

/** The shipped catalogs by language; English is the last resort of every chain. */
export const CATALOGS: Readonly<Record<string, Catalog>> = { en: EN, de: DE, fr: FR, it: IT, es: ES };

export const SHIPPED_LOCALES = Object.keys(CATALOGS);

export function isMessageCode(key: string): key is MessageCode {
  return Object.hasOwn(EN, key);
}

/**
 * The catalog for a locale chain (the form's locale, then the space's fallbacks): the first locale with a catalog of
 * its own or whose language has one (`de-CH` → `de`), else English.
 */
export function catalogFor(chain: readonly string[]): { locale: string; catalog: Catalog } {
  for (const code of chain) {
    for (const candidate of [code.toLowerCase(), code.split('-')[0]?.toLowerCase() ?? '']) {
      const catalog = Object.hasOwn(CATALOGS, candidate) ? CATALOGS[candidate] : undefined;
      if (catalog) return { locale: candidate, catalog };
    }
  }
  return { locale: 'en', catalog: EN };
}

export type TemplateParams = Readonly<Record<string, string | number>>;

/** Replaces `{name}` with the param; a missing param leaves the braces' content out. */
export function formatTemplate(template: string, params: TemplateParams = {}): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : '',
  );
}

/**
 * The keys a message is looked up by, most specific first: `code.variant` (a field type's wording, or `retry`),
 * the special cases one template cannot say (one file; the allowed types when known), then the code.
 */
export function messageKeys(code: string, variant?: string, params: TemplateParams = {}): string[] {
  const keys: string[] = [];
  if (code === 'too_many' && variant === 'files' && params['max'] === 1) keys.push('too_many.files_one');
  if (code === 'file_type' && params['accept'] !== undefined && params['accept'] !== '')
    keys.push('file_type.accept');
  if (variant !== undefined) keys.push(`${code}.${variant}`);
  keys.push(code);
  return keys;
}

/** A message from a catalog by code (unknown codes: the catalog's generic `error`). */
export function catalogMessage(
  catalog: Catalog,
  code: string,
  params: TemplateParams = {},
  variant?: string,
): string {
  for (const key of messageKeys(code, variant, params))
    if (isMessageCode(key)) return formatTemplate(catalog[key], params);
  return catalog.error;
}

/**
 * "Label: message", without a second mark after a label that already ends in punctuation ("Your question?" or
 * "I agree to the terms." are followed by a space only).
 */
export function labelled(label: string, message: string): string {
  const trimmed = label.trimEnd();
  return /[.:!?…)»"”]$/u.test(trimmed) ? `${trimmed} ${message}` : `${trimmed}: ${message}`;
}

/** A locale of the space as GET /status delivers it. */
export interface SpaceLocale {
  code: string;
  default?: boolean;
  fallbacks?: readonly string[];
}

/** The fallback chain of a locale (spec 1 item 3; as src/content/locales.ts builds it), ending at the default. */
export function fallbackChain(code: string, locales: readonly SpaceLocale[] = []): string[] {
  const byCode = new Map(locales.map((l) => [l.code, l]));
  const chain: string[] = [];
  const visit = (c: string): void => {
    if (chain.includes(c)) return;
    chain.push(c);
    for (const next of byCode.get(c)?.fallbacks ?? []) visit(next);
  };
  visit(code);
  const fallback = locales.find((l) => l.default === true)?.code;
  if (fallback !== undefined && !chain.includes(fallback)) chain.push(fallback);
  return chain;
}

/** Which wording a field code gets by the field's type (`too_small.date`, `too_many.files`), as on the server. */
export function variantFor(type: string | undefined): 'date' | 'number' | 'choices' | 'files' | undefined {
  switch (type) {
    case 'date':
      return 'date';
    case 'number':
      return 'number';
    case 'checkboxes':
      return 'choices';
    case 'file':
      return 'files';
    default:
      return undefined;
  }
}
