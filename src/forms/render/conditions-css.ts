// Conditions without JavaScript (spec 2.11 `showIf`): where CSS can decide a field's condition from the state of
// the controls above it — the chosen option of a select or radio group, the ticked boxes, a ticked checkbox, a
// text left empty — the form carries a rule that hides the field until its condition holds, so a visitor never
// types into a field that will not be sent. Each rule is the rules module's own evaluation, made a selector: for
// every state a control can be in, `evaluateRule` says whether the rule holds, and the states where it does
// become `:has(…:checked)` selectors on the form. Where CSS cannot decide (a number compared, a date filled in),
// the field states its condition in words instead (condition-words.ts).

import { type ConditionRule, conditionValue, evaluateRule, withDefault } from '../rules/index.js';
import type { DeliveredField, DeliveredForm } from '../definition/deliver.js';
import { DATA, ids } from './ids.js';
import type { PrefillValue } from './render-field.js';

/** Selectors on the form's controls combined with and, or, not. */
type Node = { has: string } | { not: Node } | { all: Node[] } | { any: Node[] };
/** A condition on the form's controls: a constant, or a node (constants are simplified away). */
type Pred = boolean | Node;

const has = (selector: string): Pred => ({ has: selector });

function all(ps: readonly Pred[]): Pred {
  const out: Node[] = [];
  for (const p of ps) {
    if (p === false) return false;
    if (p !== true) out.push(p);
  }
  return out.length === 0 ? true : out.length === 1 ? (out[0] ?? true) : { all: out };
}

function any(ps: readonly Pred[]): Pred {
  const out: Node[] = [];
  for (const p of ps) {
    if (p === true) return true;
    if (p !== false) out.push(p);
  }
  return out.length === 0 ? false : out.length === 1 ? (out[0] ?? false) : { any: out };
}

function not(p: Pred): Pred {
  if (typeof p === 'boolean') return !p;
  return 'not' in p ? p.not : { not: p };
}

/** A CSS string: every character but letters and digits as a hex escape, so no text ends the string or the style. */
export function cssString(text: string): string {
  let out = '"';
  for (const ch of text)
    out += /[A-Za-z0-9]/.test(ch) ? ch : `\\${(ch.codePointAt(0) ?? 0xfffd).toString(16)} `;
  return `${out}"`;
}

const byId = (id: string): string => `[id=${cssString(id)}]`;

/** A compound of pseudo-classes that matches the form when `p` holds (constants are simplified away before). */
function compile(p: Node): string {
  if ('has' in p) return `:has(${p.has})`;
  if ('not' in p) return `:not(${compile(p.not)})`;
  if ('all' in p) return p.all.map(compile).join('');
  return `:is(${p.any.map(compile).join(',')})`;
}

/** Text-like controls whose emptiness `:placeholder-shown` tells (date and time inputs show no placeholder). */
const PLACEHOLDER_TYPES = new Set(['text', 'textarea', 'email', 'tel', 'url', 'number']);
/** A value each text-like type takes, to ask the rules what a filled-in control means. */
const SAMPLE: Readonly<Record<string, string>> = {
  number: '1',
  email: 'a@example.com',
  url: 'https://example.com',
};

/**
 * Whether `rule` holds, as a predicate on the controls of `field` (the field it reads), assuming that field is
 * shown; null when CSS cannot tell.
 */
function rulePred(
  rule: ConditionRule,
  field: DeliveredField,
  prefix: string,
  rendered: PrefillValue | undefined,
  placeholders: Set<string>,
): Pred | null {
  const holds = (raw: unknown): boolean =>
    evaluateRule(rule, new Map([[field.key, conditionValue(field.type, withDefault(field, raw))]]));
  const options = field.options ?? [];
  switch (field.type) {
    case 'select': {
      const control = byId(ids.control(prefix, field.key));
      const states = [{ value: '' }, ...options].map((o) =>
        holds(o.value) ? has(`${control} option[value=${cssString(o.value)}]:checked`) : false,
      );
      return any(states);
    }
    case 'radio': {
      const checked = options.map((_, i) => has(`${byId(ids.option(prefix, field.key, i))}:checked`));
      return any([
        ...options.map((o, i) => (holds(o.value) ? (checked[i] ?? false) : false)),
        holds(undefined) ? not(any(checked)) : false,
      ]);
    }
    case 'checkboxes': {
      // A rule on ticked boxes holds when any of them matches (equals, in, filled), or when none does
      // (notEquals, notIn, empty): the rule with no box ticked tells which.
      const checked = (i: number): Pred => has(`${byId(ids.option(prefix, field.key, i))}:checked`);
      return holds(undefined)
        ? not(any(options.map((o, i) => (holds([o.value]) ? false : checked(i)))))
        : any(options.map((o, i) => (holds([o.value]) ? checked(i) : false)));
    }
    case 'checkbox':
    case 'consent': {
      const ticked = has(`${byId(ids.control(prefix, field.key))}:checked`);
      return any([holds('true') ? ticked : false, holds(undefined) ? not(ticked) : false]);
    }
    case 'hidden':
      // Without JavaScript a hidden input keeps the value it was rendered with.
      return holds(typeof rendered === 'string' ? rendered : undefined);
    case 'file':
      // Without JavaScript a file field holds nothing (it is disabled until the enhancer turns it on).
      return holds(undefined);
    case 'heading':
    case 'paragraph':
    case 'section':
      return holds(undefined);
    default: {
      if (!PLACEHOLDER_TYPES.has(field.type) || (rule.op !== 'filled' && rule.op !== 'empty')) return null;
      const empty = holds(undefined);
      const filled = holds(SAMPLE[field.type] ?? 'x');
      if (empty === filled) return empty;
      placeholders.add(field.key);
      const blank = has(`${byId(ids.control(prefix, field.key))}:placeholder-shown`);
      return filled ? not(blank) : blank;
    }
  }
}

export interface NoScriptConditions {
  /** Rules hiding the fields CSS decides, for forms the enhancer has not taken over; '' when there are none. */
  css: string;
  /** Keys of fields with a condition CSS cannot decide: they say in words when they apply. */
  undecided: Set<string>;
  /**
   * Keys of text-like controls a condition reads as filled or empty: they need a placeholder (a blank one when the
   * field has none), since `:placeholder-shown` is how CSS sees an empty control.
   */
  placeholders: Set<string>;
}

/** Longest selector one field's condition may become; past it the field says its condition in words. */
const MAX_SELECTOR = 4000;

/**
 * The no-JavaScript treatment of a form's conditions. Walks the fields top to bottom as the rules do (spec 2.11:
 * a rule reads fields above; a hidden field's value counts as absent), so chained conditions compose.
 */
export function noScriptConditions(
  form: Pick<DeliveredForm, 'fields'>,
  prefix: string,
  rendered: (field: DeliveredField) => PrefillValue | undefined,
): NoScriptConditions {
  const shown = new Map<string, Pred | null>();
  const above = new Map<string, DeliveredField>();
  const placeholders = new Set<string>();
  const undecided = new Set<string>();
  const rules: string[] = [];
  for (const field of form.fields) {
    let visible: Pred | null = true;
    if (field.showIf !== undefined) {
      const parts: (Pred | null)[] = field.showIf.rules.map((rule) => {
        const read = above.get(rule.field);
        // Absent, or a field below: the rule sees no value (walkVisibility's order).
        const absent = evaluateRule(rule, new Map());
        if (read === undefined) return absent;
        const readShown = shown.get(read.key) ?? null;
        const pred = rulePred(rule, read, prefix, rendered(read), placeholders);
        if (pred === null || readShown === null) return null;
        return absent ? any([not(readShown), pred]) : all([readShown, pred]);
      });
      const decided = parts.filter((p): p is Pred => p !== null);
      visible =
        decided.length < parts.length ? null : field.showIf.match === 'any' ? any(decided) : all(decided);
      if (visible === null) undecided.add(field.key);
      else if (typeof visible !== 'boolean' && compile(visible).length > MAX_SELECTOR) {
        visible = null;
        undecided.add(field.key);
      }
    }
    shown.set(field.key, visible);
    if (!above.has(field.key)) above.set(field.key, field);
    if (visible === null || visible === true || field.type === 'hidden' || field.type === 'section') continue;
    const when = visible === false ? '' : `:not(${compile(visible)})`;
    // A field showing an error stays in sight (a value it holds must be seen to be dealt with).
    rules.push(
      `${byId(prefix)}:not([${DATA.enhanced}])${when} [${DATA.field}=${cssString(field.key)}]:not(:has([${DATA.code}])){display:none}`,
    );
  }
  const css = rules.length === 0 ? '' : `@supports selector(:has(a)){${rules.join('')}}`;
  return { css, undecided, placeholders };
}
