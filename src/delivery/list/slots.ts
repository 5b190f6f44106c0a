import type { ContentTypeDef, FieldType } from '../../content/model.js';
import { ANY_LOCALE, type IndexValue } from './index-values.js';
import type { Cond, SortSource } from './plan.js';

/**
 * Row slots (migration 0007): besides the one-value-per-row `list_values`, each version of a type with
 * short single-valued fields gets one wide `list_rows` row per locale holding the first of those fields in
 * fixed columns `s1…s4` (strings) and `n1…n4` (numbers). A filter on such a field is then a column test on
 * the row, and a list filtered by type plus an `eq`/`in` on one of them counts and pages from one index
 * range with every other slotted filter checked inside it, instead of probing `list_values` once per match.
 *
 * Which field sits in which slot follows from the type definition alone (field order), so the writer and the
 * query planner agree for every cv: both read the type definition of that cv. Pure.
 */

// Columns of `list_rows`, spelled out again by migration 0007 (frozen): another slot is a migration of its own
// and a new `LIST_REINDEX` version (list-write-repo.ts), so every store fills it.
export const STR_SLOTS = ['s1', 's2', 's3', 's4'] as const;
export const NUM_SLOTS = ['n1', 'n2', 'n3', 'n4'] as const;
export type StrSlot = (typeof STR_SLOTS)[number];
export type NumSlot = (typeof NUM_SLOTS)[number];
export type Slot = StrSlot | NumSlot;

/**
 * Strings in slots are cut to this many UTF-16 units so an index entry of all slots stays far below
 * PostgreSQL's B-tree limit (about 2.7 KB, a character being up to 4 bytes).
 */
export const SLOT_TEXT_CAP = 100;
/**
 * A filter is answered from a string slot only when its values are at most this long: a cut value is at least
 * `SLOT_TEXT_CAP - 1` long, so it can never equal such a value, and comparisons with it are decided within
 * the characters the cut keeps. Longer filter values take the exact `list_values` path.
 */
export const SLOT_QUERY_MAX = 90;

// Bounded, single-valued field types (text fields are long: list_values and search serve them).
const STR_SLOTTED = new Set<FieldType>(['option', 'date', 'datetime', 'boolean', 'reference']);

// Values that never reach SLOT_TEXT_CAP: their slots sort exactly like list_values.
const EXACT = new Set<FieldType>(['number', 'date', 'datetime', 'boolean']);

export interface SlotLayout {
  /** Field key → slot. Empty when the type has no slotted field (no rows are written). */
  slots: ReadonlyMap<string, Slot>;
  /** Whether a slotted field is localized: then one row per locale, otherwise one row in locale `*`. */
  perLocale: boolean;
  /** Keys whose slot always holds the whole value (numbers, dates, booleans): sorts can read them. */
  exact: ReadonlySet<string>;
}

const layouts = new WeakMap<ContentTypeDef, SlotLayout>();

export function slotLayout(type: ContentTypeDef | undefined): SlotLayout {
  if (!type) return { slots: new Map(), perLocale: false, exact: new Set() };
  const known = layouts.get(type);
  if (known) return known;
  const slots = new Map<string, Slot>();
  const exact = new Set<string>();
  let s = 0;
  let n = 0;
  let perLocale = false;
  for (const def of type.fields) {
    let slot: Slot | undefined;
    if (def.type === 'number') slot = NUM_SLOTS[n++];
    else if (STR_SLOTTED.has(def.type) && !(def.type === 'reference' && def.many)) slot = STR_SLOTS[s++];
    if (slot === undefined) continue;
    slots.set(def.key, slot);
    if (EXACT.has(def.type)) exact.add(def.key);
    perLocale ||= def.localized === true;
  }
  const layout = { slots, perLocale, exact };
  layouts.set(type, layout);
  return layout;
}

export const isNumSlot = (slot: Slot): slot is NumSlot => slot.startsWith('n');

/** The row locale a list in `locale` reads (see SlotLayout.perLocale). */
export const rowLocale = (layout: SlotLayout, locale: string): string =>
  layout.perLocale ? locale : ANY_LOCALE;

function capSlot(s: string): string {
  if (s.length <= SLOT_TEXT_CAP) return s;
  const cut = s.slice(0, SLOT_TEXT_CAP);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export type SlotRow = { loc: string } & Record<StrSlot, string | null> & Record<NumSlot, number | null>;

/**
 * The rows of one version from its index values (after fallback): per locale of `locales`, or one in `*`.
 * A slot holds the field's value in that locale (a non-localized field's `*` value in every row).
 */
export function slotRows(
  values: readonly IndexValue[],
  layout: SlotLayout,
  locales: Iterable<string>,
): SlotRow[] {
  if (layout.slots.size === 0) return [];
  const row = (loc: string): SlotRow => {
    const r: SlotRow = {
      loc,
      s1: null,
      s2: null,
      s3: null,
      s4: null,
      n1: null,
      n2: null,
      n3: null,
      n4: null,
    };
    for (const v of values) {
      const slot = layout.slots.get(v.key);
      if (slot === undefined || (v.loc !== loc && v.loc !== ANY_LOCALE)) continue;
      // Field values are validated scalars: one value per field and locale.
      if (isNumSlot(slot)) r[slot] = v.num;
      else r[slot] = v.str === null ? null : capSlot(v.str);
    }
    return r;
  };
  return layout.perLocale ? [...locales].map(row) : [row(ANY_LOCALE)];
}

/**
 * The slot a filter on a list of one type (`layout`) can be answered from, or null (list_values then).
 * Substring tests are never slotted; `@` members (tags, paths) have no slot.
 */
export function slotOf(cond: Cond, layout: SlotLayout): Slot | null {
  const { source } = cond;
  if (source.kind !== 'value' || source.many || cond.test === 'substring') return null;
  const slot = layout.slots.get(source.key);
  if (slot === undefined) return null;
  const values = cond.test === 'in' ? cond.values : cond.test === 'cmp' ? [cond.value] : [];
  if (values.some((v) => typeof v === 'string' && v.length > SLOT_QUERY_MAX)) return null;
  return slot;
}

const isStr = (slot: Slot | null): boolean => slot !== null && !isNumSlot(slot);

/** A filter selecting rows by a string slot's value: it can drive a rows query (each such slot has an index). */
export const drivesRows = (cond: Cond, layout: SlotLayout): boolean =>
  !cond.negate && cond.test === 'in' && isStr(slotOf(cond, layout));

/** The slot a sort on a field reads from a row, when it holds the whole value (else list_values is joined). */
export function sortSlot(source: SortSource, layout: SlotLayout): Slot | null {
  if (source.kind !== 'value' || source.many || !layout.exact.has(source.key)) return null;
  return layout.slots.get(source.key) ?? null;
}
