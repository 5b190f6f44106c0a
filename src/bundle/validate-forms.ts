import { hasUnstorableText } from '../forms/controls.js';
import { validateFormDefinition } from '../forms/definition/index.js';
import type { Bundle } from './format.js';
import { at, isObject, type Problems } from './problems.js';

/**
 * Forms of a bundle (spec 2.10–2.12): each definition is checked as the management API checks it, against the
 * bundle's locales and option lists, its problems named by JSON path (`forms[0].fields[2].maxLength`).
 */
export function checkForms(bundle: Bundle, locales: ReadonlySet<string>, p: Problems): void {
  const listKeys = new Set(bundle.lists.flatMap((l) => (typeof l.key === 'string' ? [l.key] : [])));
  const seen = new Map<string, number>();
  bundle.forms.forEach((form, i) => {
    const path = at('forms', i);
    if (hasUnstorableText(form)) p.add(path, 'must not contain NUL characters or unpaired surrogates');
    const result = validateFormDefinition(form, { listKeys, locales: [...locales] });
    if (!result.ok)
      for (const e of result.errors)
        p.add(
          e.path === '' ? path : e.path.startsWith('[') ? `${path}${e.path}` : `${path}.${e.path}`,
          e.message,
        );
    const key = isObject(form) ? form.key : undefined;
    if (typeof key !== 'string') return;
    const first = seen.get(key);
    if (first !== undefined) p.add(at(path, 'key'), `duplicate form "${key}" (also forms[${first}])`);
    else seen.set(key, i);
  });
}
