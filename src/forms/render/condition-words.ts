// A field's condition (spec 2.11 `showIf`) in the visitor's words: "Only if “Guests” is more than 0." — said beside
// a field whose condition CSS cannot decide without JavaScript, and beside a value that would not be sent.

import type { Condition, ConditionRule } from '../rules/index.js';
import type { DeliveredField } from '../definition/deliver.js';
import { type Messages, text } from './messages.js';

/** "“a”, “b” or “c”" in the messages' language. */
function list(items: readonly string[], messages: Messages | undefined): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${text('or', messages)} ${items[items.length - 1] ?? ''}`;
}

/** An operand as the visitor saw it: the option's label for choice fields, quoted; numbers as they are. */
function operand(value: unknown, field: DeliveredField | undefined, messages: Messages | undefined): string {
  const raw =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  const label = field?.options?.find((o) => o.value === raw)?.label ?? raw;
  return text('cond.value', messages, { value: label });
}

function ruleWords(
  rule: ConditionRule,
  fields: ReadonlyMap<string, DeliveredField>,
  messages: Messages | undefined,
): string {
  const field = fields.get(rule.field);
  const name = field?.label ?? rule.field;
  const box = field?.type === 'checkbox' || field?.type === 'consent';
  switch (rule.op) {
    case 'equals':
    case 'notEquals': {
      if (box) {
        const ticked = (String(rule.value) === 'true') === (rule.op === 'equals');
        return text(ticked ? 'cond.checked' : 'cond.unchecked', messages, { field: name });
      }
      const key = rule.op === 'equals' ? 'cond.equals' : 'cond.notEquals';
      return text(key, messages, { field: name, value: operand(rule.value, field, messages) });
    }
    case 'in':
    case 'notIn': {
      const values = (rule.values ?? []).map((v) => operand(v, field, messages));
      const key = rule.op === 'in' ? 'cond.in' : 'cond.notIn';
      return text(key, messages, { field: name, values: list(values, messages) });
    }
    case 'greaterThan':
    case 'lessThan':
      return text(rule.op === 'greaterThan' ? 'cond.greaterThan' : 'cond.lessThan', messages, {
        field: name,
        value: String(rule.value ?? ''),
      });
    case 'filled':
      return text('cond.filled', messages, { field: name });
    default:
      return text('cond.empty', messages, { field: name });
  }
}

/** The sentence saying when a field applies, e.g. "Only if “Topic” is “Press” or “Support”." */
export function conditionWords(
  condition: Condition,
  fields: ReadonlyMap<string, DeliveredField>,
  messages: Messages | undefined,
): string {
  const parts = condition.rules.map((r) => ruleWords(r, fields, messages));
  const joiner = ` ${text(condition.match === 'any' ? 'or' : 'and', messages)} `;
  return text('when', messages, { condition: parts.join(joiner) });
}
