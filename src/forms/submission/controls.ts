// Submission control keys (spec 4.4) and the small readings of a submitted body every part of the pipeline
// shares. Bodies are prototype-less records or parsed JSON: every read goes through Object.hasOwn.

import type { LocaleDef, SpaceSettings } from '../../content/model.js';
import { defaultLocale } from '../../content/locales.js';
import type { FormField } from '../rules/index.js';

export const CONTROL_KEYS = {
  turnstile: 'cf-turnstile-response',
  page: '_page',
  locale: '_locale',
  redirect: '_redirect',
  redirectError: '_redirect_error',
  // Beyond spec 4.4 (docs/api.md "Plain HTML posts"): the answers a visitor was told will not be sent, and a
  // form's wish for Folio's own page when a plain post fails. Field keys start with a letter: never these.
  drop: '_drop',
  errorPage: '_error_page',
} as const;

/** spec 8: submitted values add up to at most 32 KB. */
export const MAX_VALUES_BYTES = 32 * 1024;
const MAX_PAGE_LENGTH = 2048;
const MAX_USER_AGENT_LENGTH = 512;

// NUL and unpaired surrogates cannot be stored (PostgreSQL's text and jsonb reject them); no form needs them.
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Drops NUL characters and replaces unpaired surrogates with U+FFFD, so every submitted text can be stored. */
export function storableText(text: string): string {
  const out = text.includes('\0') ? text.replaceAll('\0', '') : text;
  return SURROGATE.test(out) ? out.replace(LONE_SURROGATE, '\ufffd') : out;
}

/**
 * Whether a JSON value holds a text (key or string) that storableText would change. Iterative, so no value can
 * overflow the stack, whatever depth its caller let through (100,000 nested arrays once did).
 */
export function hasUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (storableText(next) !== next) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) stack.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [k, v] of Object.entries(next)) {
        if (storableText(k) !== k) return true;
        stack.push(v);
      }
    }
  }
  return false;
}

export function own(body: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}

/** A control value: a non-empty string (the first one when a name was repeated), trimmed. */
export function controlString(body: Readonly<Record<string, unknown>>, key: string): string | undefined {
  let value = own(body, key);
  if (Array.isArray(value)) value = value[0];
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

/** The strings of a repeatable control (`_drop=a&_drop=b`), at most 200 of them. */
export function controlList(body: Readonly<Record<string, unknown>>, key: string): string[] {
  const value = own(body, key);
  const items = Array.isArray(value) ? value : [value];
  return items.filter((v): v is string => typeof v === 'string').slice(0, 200);
}

/** The spam trap is filled when it holds anything but blanks (spec 3.2). */
export function isTrapFilled(body: Readonly<Record<string, unknown>>, honeypot: string): boolean {
  const value = own(body, honeypot);
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some((v) => typeof v !== 'string' || v.trim() !== '');
  return true;
}

function byteSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (value === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Bytes of the values submitted under the form's field keys (spec 8 "submitted values total"). */
export function valuesSize(body: Readonly<Record<string, unknown>>, fields: readonly FormField[]): number {
  let total = 0;
  for (const field of fields) {
    const value = own(body, field.key);
    total += Array.isArray(value) ? value.reduce<number>((n, v) => n + byteSize(v), 0) : byteSize(value);
  }
  return total;
}

const isScalar = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The raw values under field keys, for the spam folder (a trapped submission is kept, not validated): scalars
 * and lists of scalars only, so nothing a bot sends can make the record unstorable.
 */
export function rawFieldValues(
  body: Readonly<Record<string, unknown>>,
  fields: readonly FormField[],
): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const field of fields) {
    const value = own(body, field.key);
    if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) out[field.key] = value;
  }
  return out;
}

/**
 * The visitor's language (spec 4.4 `_locale`): a locale of the space, matched ignoring case, else its primary
 * language (`de-AT` → `de`), else the space's default locale. Never an error: it only picks wording.
 */
export function visitorLocale(settings: SpaceSettings, requested: string | undefined): string {
  const fallback = defaultLocale(settings);
  if (requested === undefined) return fallback;
  const find = (code: string): LocaleDef | undefined =>
    settings.locales.find((l) => l.code.toLowerCase() === code.toLowerCase());
  const primary = requested.split('-')[0] ?? '';
  return (find(requested) ?? find(primary))?.code ?? fallback;
}

/** The page a submission came from: `_page`, else the Referer (spec 4.4), bounded in length. */
export function submissionPage(
  body: Readonly<Record<string, unknown>>,
  referer: string | null,
): string | null {
  const page = controlString(body, CONTROL_KEYS.page) ?? referer ?? null;
  // Cut by code units, so a cut through a surrogate pair is made storable again.
  return page === null || page === '' ? null : storableText(page.slice(0, MAX_PAGE_LENGTH));
}

export function userAgentOf(header: string | null): string | null {
  return header === null || header === '' ? null : storableText(header.slice(0, MAX_USER_AGENT_LENGTH));
}
