import { createHash } from 'node:crypto';
import type { ContentTypeDef, TypeMap } from '../../content/model.js';
import { invalidQuery } from '../../errors/errors.js';
import { COMMON_PARAMS, single } from '../params.js';
import { FILTERABLE, searchWords, TAGS_KEY, TEXT_CAP } from './index-values.js';
import type { Cond, Scalar, SortKey, Source } from './plan.js';

/** spec 4.3 and 8; the defaults Folio chose are documented in docs/api.md. */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const MAX_FILTERS = 20;
export const MAX_SORT_KEYS = 5;
export const MAX_IN_VALUES = 100;
const MAX_TAGS = 20;
const MAX_SEARCH = 200;

export const LIST_PARAMS = [
  ...COMMON_PARAMS,
  'type',
  'under',
  'tags',
  'search',
  'sort',
  'limit',
  'cursor',
] as const;
const OPS = ['eq', 'ne', 'in', 'nin', 'contains', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;
type Op = (typeof OPS)[number];
const FILTER = /^filter\[([^[\]]+)\](?:\[([^[\]]*)\])?$/;

/** How values of a filter or sort target compare. */
type Kind = 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'ref' | 'list';
const OPS_OF: Record<Kind, readonly Op[]> = {
  text: OPS,
  number: ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'],
  date: ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'],
  datetime: ['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'],
  boolean: ['eq', 'ne', 'exists'],
  ref: ['eq', 'ne', 'in', 'nin', 'exists'],
  list: ['eq', 'ne', 'in', 'nin', 'contains', 'exists'],
};

interface Target {
  source: Source;
  kind: Kind;
}

/** Top-level entry members lists filter and sort on (spec 2.1); fields go by `fields.<key>`. */
const MEMBERS: Record<string, Target> = {
  id: { source: { kind: 'column', column: 'entry_id', nullable: false }, kind: 'ref' },
  name: { source: { kind: 'column', column: 'name', nullable: false }, kind: 'text' },
  parentId: { source: { kind: 'column', column: 'parent_id', nullable: true }, kind: 'ref' },
  position: { source: { kind: 'column', column: 'position', nullable: false }, kind: 'number' },
  publishedAt: { source: { kind: 'column', column: 'published_at', nullable: false }, kind: 'datetime' },
  firstPublishedAt: {
    source: { kind: 'column', column: 'first_published_at', nullable: false },
    kind: 'datetime',
  },
  tags: { source: { kind: 'value', key: TAGS_KEY, col: 'str', many: true, locs: 'any' }, kind: 'list' },
};
const SORTABLE_MEMBERS = ['publishedAt', 'firstPublishedAt', 'name', 'position'];

export interface ListQuery {
  type: string | null;
  under: string | null;
  conds: Cond[];
  words: string[] | null;
  sort: SortKey[];
  limit: number;
  cursor: string | null;
  /** Canonical form of what selects and orders the items: binds cursors, keys the `total` cache. */
  selection: string;
  ordering: string;
}

/** Content types /entries lists: pages and collections (spec 2.1: never globals; folders are structure). */
export const listedTypes = (types: TypeMap): ContentTypeDef[] =>
  [...types.values()].filter((t) => t.kind === 'page' || t.kind === 'collection');

function fieldTarget(key: string, types: TypeMap, type: string | null, param: string): Target {
  const scope = type === null ? listedTypes(types) : [types.get(type)].flatMap((t) => (t ? [t] : []));
  const defs = scope.flatMap((t) => t.fields.filter((f) => f.key === key));
  const where = type === null ? 'any listed type' : `type "${type}"`;
  if (defs.length === 0) throw invalidQuery(`${param}: "fields.${key}" is not a field of ${where}.`, param);
  const kinds = new Set<Kind>();
  for (const def of defs) {
    const kind = FILTERABLE[def.type];
    if (!kind)
      throw invalidQuery(`${param}: fields of type ${def.type} cannot be filtered or sorted.`, param);
    kinds.add(kind === 'ref' && def.many ? 'list' : kind);
  }
  const [kind] = kinds;
  if (kind === undefined || kinds.size > 1)
    throw invalidQuery(`${param}: "fields.${key}" differs between types; add the type parameter.`, param);
  const col = kind === 'number' ? 'num' : 'str';
  const localized = new Set(defs.map((d) => d.localized === true));
  const locs = localized.size > 1 ? 'both' : localized.has(true) ? 'locale' : 'any';
  return { source: { kind: 'value', key, col, many: kind === 'list', locs }, kind };
}

function target(name: string, types: TypeMap, type: string | null, param: string): Target {
  if (name.startsWith('fields.')) return fieldTarget(name.slice(7), types, type, param);
  const member = Object.hasOwn(MEMBERS, name) ? MEMBERS[name] : undefined;
  if (!member)
    throw invalidQuery(
      `${param}: unknown member "${name}"; use fields.<key> or one of ${Object.keys(MEMBERS).join(', ')}.`,
      param,
    );
  return member;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A filter value typed like the stored values, so both engines compare numbers and dates the same way. */
function typedValue(raw: string, kind: Kind, param: string): Scalar {
  const bad = (what: string) => invalidQuery(`${param}: "${raw}" is not ${what}.`, param);
  switch (kind) {
    case 'number': {
      const n = Number(raw);
      if (!NUMBER.test(raw) || !Number.isFinite(n)) throw bad('a number');
      return n;
    }
    case 'date':
      if (!DATE.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) throw bad('a date (YYYY-MM-DD)');
      return raw;
    case 'datetime': {
      // Stored timestamps are UTC ISO strings with milliseconds; a bare date means its start (UTC).
      const iso = DATE.test(raw) ? `${raw}T00:00:00.000Z` : raw;
      const ms = Date.parse(iso);
      if ((!DATE.test(raw) && !DATETIME.test(raw)) || Number.isNaN(ms)) throw bad('an ISO 8601 timestamp');
      return new Date(ms).toISOString();
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw bad('true or false');
      return raw;
    default:
      if (raw === '') throw bad('a value');
      if (raw.length > TEXT_CAP)
        throw invalidQuery(`${param}: values are at most ${TEXT_CAP} characters.`, param);
      return raw;
  }
}

const splitList = (raw: string): string[] => raw.split(',').map((s) => s.trim());

function parseFilter(param: string, raw: string, types: TypeMap, type: string | null): Cond {
  const m = FILTER.exec(param);
  const name = m?.[1];
  if (!m || name === undefined) throw invalidQuery(`Unknown parameter "${param}".`, param);
  const op = (m[2] ?? 'eq') as Op;
  if (!(OPS as readonly string[]).includes(op))
    throw invalidQuery(`${param}: unknown operator "${op}"; use one of ${OPS.join(', ')}.`, param);
  const { source, kind } = target(name, types, type, param);
  if (!OPS_OF[kind].includes(op))
    throw invalidQuery(`${param}: operator "${op}" does not apply to ${kind} values.`, param);
  const one = () => typedValue(raw, kind, param);
  switch (op) {
    case 'eq':
    case 'ne':
      return { source, negate: op === 'ne', test: 'in', values: [one()] };
    case 'in':
    case 'nin': {
      const values = splitList(raw);
      if (values.length > MAX_IN_VALUES)
        throw invalidQuery(`${param}: at most ${MAX_IN_VALUES} values.`, param);
      return {
        source,
        negate: op === 'nin',
        test: 'in',
        values: values.map((v) => typedValue(v, kind, param)),
      };
    }
    case 'contains':
      // On a list (tags, many references) `contains` is element equality; on text a substring.
      return kind === 'list'
        ? { source, negate: false, test: 'in', values: [one()] }
        : { source, negate: false, test: 'substring', value: String(one()) };
    case 'exists':
      if (raw !== 'true' && raw !== 'false') throw invalidQuery(`${param}: use true or false.`, param);
      return { source, negate: raw === 'false', test: 'present' };
    default: {
      const cmp = ({ gt: '>', gte: '>=', lt: '<', lte: '<=' } as const)[op];
      return { source, negate: false, test: 'cmp', cmp, value: one() };
    }
  }
}

function parseSort(raw: string, types: TypeMap, type: string | null): SortKey[] {
  const keys = splitList(raw);
  if (keys.length > MAX_SORT_KEYS) throw invalidQuery(`sort: at most ${MAX_SORT_KEYS} keys.`, 'sort');
  const seen = new Set<string>();
  return keys.map((key) => {
    const desc = key.startsWith('-');
    const name = desc ? key.slice(1) : key;
    if (seen.has(name)) throw invalidQuery(`sort: "${name}" is named twice.`, 'sort');
    seen.add(name);
    if (name === 'path') return { source: { kind: 'path' }, desc };
    if (!name.startsWith('fields.') && !SORTABLE_MEMBERS.includes(name))
      throw invalidQuery(
        `sort: unknown key "${name}"; use ${SORTABLE_MEMBERS.join(', ')}, path or fields.<key>.`,
        'sort',
      );
    const t = target(name, types, type, 'sort');
    if (t.kind === 'list')
      throw invalidQuery(`sort: "${name}" holds a list and cannot be sorted on.`, 'sort');
    return { source: t.source, desc };
  });
}

function intParam(
  query: Record<string, unknown>,
  name: string,
  def: number,
  min: number,
  max: number,
): number {
  const raw = single(query, name);
  if (raw === undefined) return def;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw invalidQuery(`Parameter "${name}" must be a whole number from ${min} to ${max}.`, name);
  return Number(raw);
}

/**
 * Text with a NUL character cannot be stored or compared by PostgreSQL (it would fail the query): such a value
 * is a bad parameter on every engine.
 */
export function rejectNul(query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query))
    if (typeof value === 'string' && value.includes('\u0000'))
      throw invalidQuery(`Parameter "${name}" contains a NUL character.`, name);
}

/** Parses and checks the list parameters of spec 4.3; every problem is a 400 naming the parameter. */
export function parseListQuery(query: Record<string, unknown>, types: TypeMap, locale: string): ListQuery {
  const type = single(query, 'type') ?? null;
  if (type !== null && !listedTypes(types).some((t) => t.key === type))
    throw invalidQuery(`type: "${type}" is not a page or collection type of this space.`, 'type');
  const conds: Cond[] = [];
  const filters = Object.keys(query).filter((k) => k.startsWith('filter'));
  if (filters.length > MAX_FILTERS)
    throw invalidQuery(`At most ${MAX_FILTERS} filters (spec 8); got ${filters.length}.`, 'filter');
  for (const param of filters.sort()) conds.push(parseFilter(param, single(query, param) ?? '', types, type));
  const tagsRaw = single(query, 'tags');
  if (tagsRaw !== undefined) {
    const tags = [...new Set(splitList(tagsRaw).filter((t) => t !== ''))];
    if (tags.length === 0 || tags.length > MAX_TAGS)
      throw invalidQuery(`tags: from 1 to ${MAX_TAGS} comma-separated tags.`, 'tags');
    for (const tag of tags)
      conds.push({ source: MEMBERS.tags!.source, negate: false, test: 'in', values: [tag] });
  }
  const under = single(query, 'under') ?? null;
  if (under !== null && (!under.startsWith('/') || under.length > 2048))
    throw invalidQuery('under: a folder path starting with "/".', 'under');
  const searchRaw = single(query, 'search');
  let words: string[] | null = null;
  if (searchRaw !== undefined) {
    words = searchWords(searchRaw.slice(0, MAX_SEARCH)).slice(0, 20);
    if (words.length === 0) throw invalidQuery('search: give at least one word.', 'search');
  }
  const sortRaw = single(query, 'sort');
  const sort: SortKey[] =
    sortRaw !== undefined
      ? parseSort(sortRaw, types, type)
      : words !== null
        ? [{ source: { kind: 'rank' }, desc: true }]
        : [{ source: MEMBERS.publishedAt!.source, desc: true }];
  const limit = intParam(query, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const cursor = single(query, 'cursor') ?? null;
  const selection = JSON.stringify([locale, type, under, conds, words]);
  return { type, under, conds, words, sort, limit, cursor, selection, ordering: JSON.stringify(sort) };
}

/** A short digest of a canonical string (cursor binding, cache keys). */
export const digest = (s: string): string => createHash('sha256').update(s).digest('base64url').slice(0, 22);
