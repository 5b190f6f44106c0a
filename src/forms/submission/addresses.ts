// The addresses of a submission as erase compares them: the values of its email fields,
// normalized (./rules/email.ts). Written beside the submission (submission_addresses), so an erase finds every
// submission of a visitor, however they typed the address, through an index.

import { type FormField, isEmail, normalizeEmail } from '../rules/index.js';

/** Each string of a value: the value itself, or the strings of a list (spam keeps raw values, lists included). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The distinct normalized addresses under `keys` of `values`: only what is an address once normalized. */
export function addressesIn(values: Readonly<Record<string, unknown>>, keys: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    if (!Object.hasOwn(values, key)) continue;
    for (const text of strings(values[key])) {
      const address = normalizeEmail(text);
      if (isEmail(address)) out.add(address);
    }
  }
  return [...out];
}

/** A submission's addresses: the values of the form's email fields, as the visitor submitted the form. */
export function submissionAddresses(
  fields: readonly Pick<FormField, 'key' | 'type'>[],
  values: Readonly<Record<string, unknown>>,
): string[] {
  return addressesIn(
    values,
    fields.filter((f) => f.type === 'email').map((f) => f.key),
  );
}
