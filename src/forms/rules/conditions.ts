// spec 2.11: `showIf` conditions. Also used for notification routing rules (`notifyRules[].when`,
// spec 2.12), which the server evaluates on validated values.

import { conditionValue, withDefault } from './coerce.js';
import { isSubmittedType } from './types.js';
import type { Condition, ConditionRule, FormDefinition, FormField } from './types.js';

/** Values a condition reads, by field key; read with Object.hasOwn, never through the prototype. */
export type ConditionValues = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

function read(values: ConditionValues, key: string): unknown {
  if (values instanceof Map) return values.get(key);
  const record = values as Readonly<Record<string, unknown>>;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** '', null, undefined, [] and false (an unticked checkbox) count as empty. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * Equality of one scalar value with a rule operand. Numbers compare numerically when either side is
 * a number (form data sends "5" where JSON sends 5); booleans compare as 'true'/'false'.
 */
function scalarEquals(value: unknown, operand: unknown): boolean {
  if (typeof value === 'number' || typeof operand === 'number') {
    const a = toNumber(value);
    const b = toNumber(operand);
    return a !== null && b !== null && a === b;
  }
  const text = (v: unknown): string | null =>
    typeof v === 'string' ? v.trim() : typeof v === 'boolean' ? String(v) : null;
  const a = text(value);
  return a !== null && a === text(operand);
}

/** For a list value (checkboxes), a rule holds when any ticked value matches (spec 2.11). */
function anyEquals(value: unknown, operand: unknown): boolean {
  return Array.isArray(value) ? value.some((v) => scalarEquals(v, operand)) : scalarEquals(value, operand);
}

function anyIn(value: unknown, operands: readonly unknown[] | undefined): boolean {
  return (operands ?? []).some((operand) => anyEquals(value, operand));
}

export function evaluateRule(rule: ConditionRule, values: ConditionValues): boolean {
  const value = read(values, rule.field);
  switch (rule.op) {
    case 'equals':
      return anyEquals(value, rule.value);
    case 'notEquals':
      return !anyEquals(value, rule.value);
    case 'in':
      return anyIn(value, rule.values);
    case 'notIn':
      return !anyIn(value, rule.values);
    case 'filled':
      return !isEmptyValue(value);
    case 'empty':
      return isEmptyValue(value);
    case 'greaterThan':
    case 'lessThan': {
      // Lists and non-numbers never compare (spec 2.11: the operand is a number).
      const a = Array.isArray(value) ? null : toNumber(value);
      const b = toNumber(rule.value);
      if (a === null || b === null) return false;
      return rule.op === 'greaterThan' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** `all`: every rule holds (true for no rules); `any`: at least one holds (false for no rules). */
export function evaluateCondition(cond: Condition, values: ConditionValues): boolean {
  return cond.match === 'any'
    ? cond.rules.some((r) => evaluateRule(r, values))
    : cond.rules.every((r) => evaluateRule(r, values));
}

/**
 * Walks the fields top to bottom (spec 2.11: rules refer only to fields above). A field is visible when
 * it has no showIf or its showIf holds on the values of the visible fields above it; a hidden field's
 * value is dropped before later fields are evaluated, so conditions chain. `valueOf` gives the value a
 * visible field contributes (undefined: absent).
 */
export function walkVisibility(
  fields: readonly FormField[],
  valueOf: (field: FormField) => unknown,
  visit: (field: FormField, visible: boolean) => void,
): void {
  const seen = new Map<string, unknown>();
  for (const field of fields) {
    const visible = field.showIf === undefined || evaluateCondition(field.showIf, seen);
    if (visible) {
      const value = valueOf(field);
      if (value !== undefined) seen.set(field.key, value);
    }
    visit(field, visible);
  }
}

/**
 * The fields shown for the current raw values (as a renderer holds them: strings from inputs, arrays
 * for checkboxes, booleans or "on"). Includes heading, paragraph and section fields that are visible.
 */
export function visibleFields(def: Pick<FormDefinition, 'fields'>, values: ConditionValues): FormField[] {
  const out: FormField[] = [];
  walkVisibility(
    def.fields,
    (field) => conditionValue(field.type, withDefault(field, read(values, field.key))),
    (field, visible) => {
      if (visible) out.push(field);
    },
  );
  return out;
}

/**
 * Fields hidden by their conditions that still hold something the visitor gave (spec 2.11 drops such values): a
 * value typed before another answer hid the field. Fields the site fills (`hidden`) and files are left out: the
 * visitor typed neither into the form. Keys in definition order.
 */
export function hiddenValues(
  def: { readonly fields: readonly FormField[] },
  values: ConditionValues,
): string[] {
  const out: string[] = [];
  const valueOf = (field: FormField) =>
    conditionValue(field.type, withDefault(field, read(values, field.key)));
  walkVisibility(def.fields, valueOf, (field, visible) => {
    if (visible || !isSubmittedType(field.type) || field.type === 'hidden' || field.type === 'file') return;
    if (!isEmptyValue(valueOf(field))) out.push(field.key);
  });
  return out;
}
