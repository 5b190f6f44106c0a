import { createHash } from 'node:crypto';
import { localeChain, pickLocalized } from '../../content/locales.js';
import type {
  ContentTypeDef,
  EntrySnapshot,
  FieldDef,
  FieldType,
  SpaceSettings,
  TypeMap,
} from '../../content/model.js';
import { pathKey } from '../../lib/path-key.js';
import { own } from '../../lib/own.js';
import { entryTexts } from '../../content/entry-text.js';

/**
 * What lists filter, sort and search on, derived from an entry snapshot: the values a client of each locale
 * receives (after fallback along the locale chain, spec 1.3), so SQL sees exactly what is delivered. Pure: the
 * store writes these rows with each published version, and draft/release previews evaluate them in memory.
 */

/** A value of one field (or member) in one locale; `loc` is `*` when it is the same in every locale. */
export interface IndexValue {
  key: string;
  loc: string;
  str: string | null;
  num: number | null;
}

/** Kinds never listed anywhere (spec 2.1: globals; blocks are not entries): no list rows, no search text. */
export const UNLISTED_KINDS: ReadonlySet<string> = new Set(['global', 'block']);

export const ANY_LOCALE = '*';
/** Text values are compared on their first 500 characters (an index entry must stay bounded). */
export const TEXT_CAP = 500;
/** Keys of members that are not fields start with `@`, which a field key cannot. */
export const TAGS_KEY = '@tags';
export const PATH_KEY = '@path';
export const FOLDER_PATH_KEY = '@pathkey';
export const NOINDEX_KEY = '@noindex';

/**
 * Field types lists filter and sort on, and how their values compare. Long texts (textarea, rich text) are for
 * `search`, not filters: indexing them per locale would triple the index for little use.
 */
export const FILTERABLE: Partial<
  Record<FieldType, 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'ref'>
> = {
  text: 'text',
  option: 'text',
  number: 'number',
  date: 'date',
  datetime: 'datetime',
  boolean: 'boolean',
  reference: 'ref',
};
const SEARCH_CAP = 100_000;

export function capText(s: string): string {
  if (s.length <= TEXT_CAP) return s;
  const cut = s.slice(0, TEXT_CAP);
  // Never end on half a surrogate pair: the engines would store a replacement character.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function scalarValues(key: string, loc: string, v: unknown, out: IndexValue[]): void {
  const seen = new Set<string>();
  for (const item of Array.isArray(v) ? v : [v]) {
    if (typeof item === 'string') {
      const str = capText(item);
      if (seen.has(str)) continue;
      seen.add(str);
      out.push({ key, loc, str, num: null });
    } else if (typeof item === 'number' && Number.isFinite(item))
      out.push({ key, loc, str: null, num: item });
    else if (typeof item === 'boolean') out.push({ key, loc, str: String(item), num: null });
  }
}

/** Calls `each(loc, value)` with the value delivered in each locale (`*` once for a non-localized field). */
function perLocale(
  def: FieldDef,
  raw: unknown,
  chains: ReadonlyMap<string, string[]>,
  each: (loc: string, value: unknown) => void,
): void {
  if (!def.localized) {
    if (raw !== undefined && raw !== null) each(ANY_LOCALE, raw);
    return;
  }
  for (const [loc, chain] of chains) {
    const v = pickLocalized(isObj(raw) ? raw : undefined, chain);
    if (v !== undefined) each(loc, v);
  }
}

export function chainsOf(settings: SpaceSettings): Map<string, string[]> {
  return new Map(settings.locales.map((l) => [l.code, localeChain(settings, l.code)]));
}

export function indexValues(
  s: EntrySnapshot,
  type: ContentTypeDef | undefined,
  chains: ReadonlyMap<string, string[]>,
): IndexValue[] {
  const out: IndexValue[] = [];
  scalarValues(TAGS_KEY, ANY_LOCALE, s.tags, out);
  for (const [loc, path] of Object.entries(s.paths ?? {})) {
    out.push({ key: PATH_KEY, loc, str: path, num: null });
    // spec 4.3 `under` names a folder by path, matched like by-path (case and trailing slash ignored).
    if (type?.kind === 'folder') out.push({ key: FOLDER_PATH_KEY, loc, str: pathKey(path), num: null });
  }
  for (const def of type?.fields ?? []) {
    const raw = own(s.fields, def.key);
    if (FILTERABLE[def.type]) perLocale(def, raw, chains, (loc, v) => scalarValues(def.key, loc, v, out));
    else if (def.type === 'seo')
      // spec 2.7: an SEO field with noindex set keeps the entry out of that locale's sitemap. Written per
      // locale (never `*`) so the sitemap probes one row.
      perLocale(def, raw, chains, (loc, v) => {
        if (!isObj(v) || v.noindex !== true) return;
        for (const code of loc === ANY_LOCALE ? chains.keys() : [loc])
          if (!out.some((o) => o.key === NOINDEX_KEY && o.loc === code))
            out.push({ key: NOINDEX_KEY, loc: code, str: 'true', num: null });
      });
  }
  return out;
}

/**
 * The searchable text per locale: the name and every text, textarea and rich-text field after fallback, blocks
 * included (`entryTexts`, shared with semantic search). What it returns is written to the list tables: a change
 * here needs a new `LIST_REINDEX` version (list-write-repo.ts).
 */
export function searchTexts(
  s: EntrySnapshot,
  types: TypeMap,
  chains: ReadonlyMap<string, string[]>,
): Map<string, string> {
  return entryTexts(s, types, chains, SEARCH_CAP);
}

/** The words of a search text: letters and digits, as both engines' tokenizers split them. */
export function searchWords(text: string): string[] {
  return [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
}

// PostgreSQL's built-in snowball configurations by language subtag; other languages get `simple`.
const CONFIGS: Record<string, string> = {
  da: 'danish',
  de: 'german',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  hu: 'hungarian',
  it: 'italian',
  nb: 'norwegian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  tr: 'turkish',
};

/** PostgreSQL text-search configuration per locale (spec 4.3: language-aware where the engine allows). */
export function searchConfig(locale: string): string {
  return CONFIGS[locale.toLowerCase().split('-')[0] ?? ''] ?? 'simple';
}

/** The scope token of a space's text in one locale: letters and digits only, so it is one token everywhere. */
export function searchScope(spaceId: string, locale: string): string {
  return `z${createHash('sha256').update(`${spaceId}\n${locale}`).digest('hex').slice(0, 24)}`;
}
