import type { EntrySnapshot, TypeMap } from '../../content/model.js';
import { ANY_LOCALE, indexValues, type IndexValue, searchTexts } from './index-values.js';
import {
  compareComponents,
  compareScalar,
  componentDirections,
  nullableComponents,
  numericSort,
} from './order.js';
import type { Column, Cond, ListPlan, Locs, Scalar, SortKey, Test } from './plan.js';

/**
 * The preview evaluator: draft and release lists (spec 3.4, 4.1 `draft`, `release`) evaluated over the view's
 * snapshots, which are not in the list tables (those hold published versions only). Preview traffic is small and
 * never cached, so every request derives the values anew: the values the list tables would hold (index-values.ts),
 * ordered and paged by the rules of order.ts, so a preview orders and pages like the published list would.
 */

function passes(v: Scalar | null, t: Test): boolean {
  if (v === null) return false;
  switch (t.test) {
    case 'in':
      return t.values.some((x) => compareScalar(v, x) === 0);
    case 'substring':
      return typeof v === 'string' && v.includes(t.value);
    case 'cmp': {
      const c = compareScalar(v, t.value);
      return t.cmp === '>' ? c > 0 : t.cmp === '>=' ? c >= 0 : t.cmp === '<' ? c < 0 : c <= 0;
    }
    case 'present':
      return true;
  }
}

const COLUMN: Record<Column, (s: EntrySnapshot) => Scalar | null> = {
  entry_id: (s) => s.id,
  name: (s) => s.name,
  parent_id: (s) => s.parentId,
  position: (s) => s.position,
  published_at: (s) => s.publishedAt,
  first_published_at: (s) => s.firstPublishedAt,
};

interface Candidate {
  s: EntrySnapshot;
  values: IndexValue[];
  rank: number;
}

const inLocs = (loc: string, locs: Locs, locale: string): boolean =>
  locs === 'locale'
    ? loc === locale
    : locs === 'any'
      ? loc === ANY_LOCALE
      : loc === locale || loc === ANY_LOCALE;

function matches(c: Candidate, cond: Cond, locale: string): boolean {
  let pos: boolean;
  if (cond.source.kind === 'column') pos = passes(COLUMN[cond.source.column](c.s), cond);
  else {
    const { key, col, locs } = cond.source;
    pos = c.values.some((v) => v.key === key && inLocs(v.loc, locs, locale) && passes(v[col], cond));
  }
  return cond.negate ? !pos : pos;
}

function sortValues(c: Candidate, sort: readonly SortKey[], locale: string): Scalar[] {
  const out: Scalar[] = [];
  for (const { source } of sort) {
    if (source.kind === 'column') out.push(COLUMN[source.column](c.s) ?? '');
    else if (source.kind === 'rank') out.push(c.rank);
    else {
      const v =
        source.kind === 'path'
          ? (c.s.paths?.[locale] ?? null)
          : (c.values.find((x) => x.key === source.key && inLocs(x.loc, source.locs, locale))?.[source.col] ??
            null);
      out.push(...nullableComponents(v, numericSort(source)));
    }
  }
  out.push(c.s.id);
  return out;
}

const fold = (w: string): string => w.normalize('NFD').replace(/\p{M}/gu, '');

/** Previews match words like the SQLite tokenizer (case and diacritics folded); rank = how often they occur. */
function occurrences(text: string, words: readonly string[]): number {
  const tokens = (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).map(fold);
  const wanted = new Set(words.map(fold));
  const hits = tokens.filter((t) => wanted.has(t));
  return [...wanted].every((w) => hits.includes(w)) ? hits.length : 0;
}

/** The whole evaluation of a preview list: its total and one page of entry ids with their cursor values. */
export function previewList(
  snapshots: readonly EntrySnapshot[],
  types: TypeMap,
  chains: ReadonlyMap<string, string[]>,
  plan: ListPlan,
): { total: number; rows: { entryId: string; after: Scalar[] }[] } {
  const out: { entryId: string; after: Scalar[] }[] = [];
  for (const s of snapshots) {
    const type = types.get(s.type);
    if (!type || (type.kind !== 'page' && type.kind !== 'collection')) continue;
    if (plan.type !== null && s.type !== plan.type) continue;
    const path = s.paths?.[plan.locale];
    if (plan.under !== null && !(path === plan.under || path?.startsWith(`${plan.under}/`))) continue;
    let rank = 0;
    if (plan.words !== null) {
      rank = occurrences(searchTexts(s, types, chains).get(plan.locale) ?? s.name, plan.words);
      if (rank === 0) continue;
    }
    const c: Candidate = { s, values: indexValues(s, type, chains), rank };
    if (!plan.conds.every((cond) => matches(c, cond, plan.locale))) continue;
    out.push({ entryId: s.id, after: sortValues(c, plan.sort, plan.locale) });
  }
  const desc = componentDirections(plan.sort);
  out.sort((a, b) => compareComponents(a.after, b.after, desc));
  const after = plan.after;
  const from = after === null ? out : out.filter((r) => compareComponents(r.after, after, desc) > 0);
  return { total: out.length, rows: from.slice(0, plan.limit + 1) };
}
