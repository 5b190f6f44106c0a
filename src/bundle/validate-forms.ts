import { hasUnstorableText } from '../forms/submission/controls.js';
import { validateFormDefinition } from '../forms/definition/index.js';
import type { FormDefinition } from '../forms/rules/index.js';
import { at, isObject, type Problems } from '../lib/problems.js';

/**
 * Forms of a bundle (spec 2.10–2.12): each definition is checked as the management API checks it, against the
 * bundle's locales and option lists, its problems named by JSON path (`forms[0].fields[2].maxLength`). What comes
 * back is the validator's own copy, `settings` defaulting to `{}`.
 */
export function parseForms(
  raw: readonly unknown[],
  ctx: { locales: ReadonlySet<string>; listKeys: ReadonlySet<string> },
  p: Problems,
): FormDefinition[] {
  const seen = new Map<string, number>();
  return raw.flatMap((form, i) => {
    const path = at('forms', i);
    const before = p.count;
    if (hasUnstorableText(form)) p.add(path, 'must not contain NUL characters or unpaired surrogates');
    const result = validateFormDefinition(form, { listKeys: ctx.listKeys, locales: [...ctx.locales] });
    if (!result.ok)
      for (const e of result.errors)
        p.add(
          e.path === '' ? path : e.path.startsWith('[') ? `${path}${e.path}` : `${path}.${e.path}`,
          e.message,
        );
    const key = isObject(form) ? form.key : undefined;
    if (typeof key === 'string') {
      const first = seen.get(key);
      if (first !== undefined) p.add(at(path, 'key'), `duplicate form "${key}" (also forms[${first}])`);
      else seen.set(key, i);
    }
    if (!result.ok || p.count !== before) return [];
    // `settings` may be left out (or null) in a definition; the stored form always has the object.
    const settings: unknown = result.form.settings;
    return [{ ...result.form, settings: isObject(settings) ? result.form.settings : {} }];
  });
}
