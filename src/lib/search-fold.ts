// Text folded as people compare it when they search: "MÜLLER" finds "Müller", "zoe" finds "Zoë", "STRASSE" finds
// "Straße", "ISTANBUL" finds "İstanbul", "οδος" finds "ΟΔΌΣ". The inbox stores the folded copy of a submission's
// values beside them (`submissions.search_text`) and folds the query the same way, so both engines compare plain
// strings and agree by construction (SQLite's own LIKE folds ASCII only; PostgreSQL's follows its collation).
// Pure: no Node, no SQL.

/**
 * Letters that carry their accent in the letter itself, with no decomposition to strip (Unicode keeps them apart
 * from their base letter), mapped as a person typing without them expects: "Lodz" finds "Łódź", "Soren" finds
 * "Søren", "Isik" finds "Işık". Applied after lower-casing.
 */
const BASE_LETTERS: Readonly<Record<string, string>> = {
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ŧ: 't',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  // Full case folding where lower-casing stops short (CaseFolding.txt status F and the final sigma).
  ß: 'ss',
  ς: 'σ',
};
const BASE_LETTER = new RegExp(`[${Object.keys(BASE_LETTERS).join('')}]`, 'gu');

/** Combining marks (accents, the dot of İ) and format characters (bidi controls, soft hyphen, zero widths). */
const MARKS_AND_FORMAT = /[\p{M}\p{Cf}]/gu;
/** Any run of white space or control characters: one space. */
const SPACES = /[\s\p{Cc}]+/gu;

/**
 * Folds text for searching: compatibility decomposition (NFKD: "ﬁ" → "fi", full-width "Ａ" → "A", "²" → "2"),
 * marks and format characters removed, lower case with full case folding, the letters of BASE_LETTERS replaced,
 * white space collapsed to single spaces. Idempotent: folding folded text changes nothing.
 */
export function foldForSearch(text: string): string {
  const lower = text.normalize('NFKD').replace(MARKS_AND_FORMAT, '').toLowerCase();
  // Lower-casing can produce what decomposes again ("İ" → "i̇"), so decompose and strip once more.
  return lower
    .normalize('NFKD')
    .replace(MARKS_AND_FORMAT, '')
    .replace(BASE_LETTER, (c) => BASE_LETTERS[c] ?? c)
    .replace(SPACES, ' ');
}

/**
 * The searchable copy of a submission's values: every string and number, list items included (never keys, never
 * booleans), each folded, one per line. A folded query holds no line break, so a match never spans two values.
 */
export function searchTextOf(values: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string') parts.push(foldForSearch(v));
    else if (typeof v === 'number' && Number.isFinite(v)) parts.push(String(v));
  };
  for (const value of Object.values(values)) {
    if (Array.isArray(value)) for (const item of value) add(item);
    else add(value);
  }
  return parts.join('\n');
}
