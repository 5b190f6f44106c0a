// Authoring checks of conditions: `showIf` on fields (spec 2.11) and `when` on notification rules
// (spec 2.12 notifyRules).

import type { ConditionOp, FieldType } from '../rules/types.js';
import { CONDITION_OPS, isSubmittedType } from '../rules/types.js';
import type { Issues } from './issues.js';
import { at, isObject } from './issues.js';

const CONDITION_KEYS = new Set(['match', 'rules']);
const RULE_KEYS = new Set(['field', 'op', 'value', 'values']);

/** Where a referenced field sits in the form. */
export interface FieldRef {
  index: number;
  type: FieldType;
}

/**
 * `fields` maps each field key to its position (first occurrence). `before` is the index of the field
 * carrying the condition: rules may refer only to fields above it (spec 2.11). Notification rules run
 * after validation and may refer to any field: pass Infinity.
 */
export function checkCondition(
  issues: Issues,
  value: unknown,
  path: string,
  fields: ReadonlyMap<string, FieldRef>,
  before: number,
): void {
  if (!isObject(value)) {
    issues.add(path, 'must be an object with match and rules');
    return;
  }
  issues.unknownKeys(value, path, CONDITION_KEYS, 'conditions');
  if (value['match'] !== 'all' && value['match'] !== 'any')
    issues.add(at(path, 'match'), 'must be "all" or "any"');
  const rules = value['rules'];
  if (!Array.isArray(rules) || rules.length === 0) {
    issues.add(at(path, 'rules'), 'must be a non-empty array');
    return;
  }
  rules.forEach((rule, i) => checkRule(issues, rule, at(at(path, 'rules'), i), fields, before));
}

function checkRule(
  issues: Issues,
  rule: unknown,
  path: string,
  fields: ReadonlyMap<string, FieldRef>,
  before: number,
): void {
  if (!isObject(rule)) {
    issues.add(path, 'must be an object with field and op');
    return;
  }
  issues.unknownKeys(rule, path, RULE_KEYS, 'condition rules');
  const key = issues.string(rule, 'field', path, { required: true });
  if (key !== undefined) checkReference(issues, key, at(path, 'field'), fields, before);

  const op = rule['op'];
  if (typeof op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(op)) {
    issues.add(
      at(path, 'op'),
      `unknown op ${JSON.stringify(op)} (expected one of ${CONDITION_OPS.join(', ')})`,
    );
    return;
  }
  checkOperand(issues, rule, path, op as ConditionOp);
}

function checkReference(
  issues: Issues,
  key: string,
  path: string,
  fields: ReadonlyMap<string, FieldRef>,
  before: number,
): void {
  const ref = fields.get(key);
  if (ref === undefined) issues.add(path, `unknown field "${key}"`);
  else if (!isSubmittedType(ref.type))
    issues.add(path, `field "${key}" is a ${ref.type} and is never submitted`);
  else if (ref.index >= before) issues.add(path, `field "${key}" is not above this field (spec 2.11)`);
}

// spec 2.11 operand table: equals/notEquals → value; in/notIn → values; filled/empty → none;
// greaterThan/lessThan → a number.
function checkOperand(issues: Issues, rule: Record<string, unknown>, path: string, op: ConditionOp): void {
  const hasValue = rule['value'] !== undefined;
  const hasValues = rule['values'] !== undefined;
  const value = rule['value'];
  switch (op) {
    case 'equals':
    case 'notEquals':
      if (hasValues) issues.add(at(path, 'values'), `${op} takes value, not values`);
      if (!hasValue) issues.add(at(path, 'value'), `is required for ${op}`);
      else if (!['string', 'number', 'boolean'].includes(typeof value)) {
        issues.add(at(path, 'value'), 'must be a string, number or boolean');
      }
      return;
    case 'in':
    case 'notIn': {
      if (hasValue) issues.add(at(path, 'value'), `${op} takes values, not value`);
      const values = rule['values'];
      if (!Array.isArray(values) || values.length === 0) {
        issues.add(at(path, 'values'), `must be a non-empty array for ${op}`);
      } else if (!values.every((v) => typeof v === 'string' || typeof v === 'number')) {
        issues.add(at(path, 'values'), 'must hold only strings and numbers');
      }
      return;
    }
    case 'filled':
    case 'empty':
      if (hasValue) issues.add(at(path, 'value'), `${op} takes no operand`);
      if (hasValues) issues.add(at(path, 'values'), `${op} takes no operand`);
      return;
    default:
      if (hasValues) issues.add(at(path, 'values'), `${op} takes value, not values`);
      if (typeof value !== 'number' || !Number.isFinite(value))
        issues.add(at(path, 'value'), `must be a number for ${op}`);
  }
}
