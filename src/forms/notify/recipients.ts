// Who is told about a submission (spec 2.12 `notify`/`notifyRules`, 4.4 rule 6, 8). Pure: no Node, no store.

import { MAX_ROUTED_RECIPIENTS } from '../definition/index.js';
import { type ConditionValues, evaluateCondition } from '../rules/index.js';
import type { FormDefinition } from '../rules/index.js';

/** spec 8: "Routed recipients: at most 20 per submission". */
export const MAX_RECIPIENTS_PER_SUBMISSION = MAX_ROUTED_RECIPIENTS;

/**
 * The owner addresses one submission is mailed to: the form's `notify` addresses, then the `to` of every
 * `notifyRules` rule whose `when` holds on the validated values (the condition engine of `showIf`, spec 2.11),
 * in rule order; repeats dropped ignoring case (the first spelling is kept); at most 20 (spec 8).
 */
export function notificationRecipients(
  def: Pick<FormDefinition, 'settings'>,
  values: ConditionValues,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (addresses: readonly string[]): void => {
    for (const address of addresses) {
      if (out.length >= MAX_RECIPIENTS_PER_SUBMISSION) return;
      const key = address.trim().toLowerCase();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      out.push(address.trim());
    }
  };
  add(def.settings.notify ?? []);
  for (const rule of def.settings.notifyRules ?? []) {
    if (out.length >= MAX_RECIPIENTS_PER_SUBMISSION) break;
    if (evaluateCondition(rule.when, values)) add(rule.to);
  }
  return out;
}
