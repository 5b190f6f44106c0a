import { LRUCache } from 'lru-cache';
import type { ListOption } from '../definition/index.js';
import { resolveListOptions } from '../rules/index.js';
import type { FormDefinition, FormOption } from '../rules/index.js';
import { readFormsAt, readListsAt } from '../authoring/forms-repo.js';
import type { Store } from '../../store/open-store.js';

/** A published form with what delivering and checking it needs. */
export interface LoadedForm {
  /** As authored (translations, secret and notification settings included: server side only). */
  definition: FormDefinition;
  /** The shared option lists its choice fields use, with localized labels (spec 2.8). */
  lists: Record<string, ListOption[]>;
  /** The definition with lists resolved into `options`, as validateSubmission needs it. */
  checked: FormDefinition;
}

/**
 * Reads published forms at a cv. A version at a cv never changes (the published log), so loaded forms are
 * cached by space, cv and key: a hot form costs no query per submission, and a publish (new cv) is seen at once.
 */
export class FormSource {
  private readonly cache = new LRUCache<string, { form: LoadedForm | null }>({ max: 2000 });

  constructor(private readonly store: Store) {}

  async load(spaceId: string, key: string, cv: number): Promise<LoadedForm | null> {
    return (await this.loadMany(spaceId, [key], cv)).get(key) ?? null;
  }

  async loadMany(spaceId: string, keys: readonly string[], cv: number): Promise<Map<string, LoadedForm>> {
    const out = new Map<string, LoadedForm>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const hit = this.cache.get(cacheKey(spaceId, cv, key));
      if (!hit) missing.push(key);
      else if (hit.form) out.set(key, hit.form);
    }
    if (missing.length === 0) return out;
    const defs = await readFormsAt(this.store, spaceId, missing, cv);
    const listKeys = new Set<string>();
    for (const def of defs.values())
      for (const f of def.fields) if (f.list !== undefined) listKeys.add(f.list);
    const lists = await readListsAt(this.store, spaceId, [...listKeys], cv);
    for (const key of missing) {
      const def = defs.get(key);
      const form = def ? prepare(def, lists) : null;
      this.cache.set(cacheKey(spaceId, cv, key), { form });
      if (form) out.set(key, form);
    }
    return out;
  }
}

const cacheKey = (spaceId: string, cv: number, key: string): string => `${spaceId}\n${cv}\n${key}`;

function prepare(definition: FormDefinition, all: Record<string, ListOption[]>): LoadedForm {
  const lists = Object.create(null) as Record<string, ListOption[]>;
  const options = Object.create(null) as Record<string, FormOption[]>;
  for (const field of definition.fields) {
    const list = field.list;
    if (list === undefined || !Object.hasOwn(all, list)) continue;
    lists[list] = all[list] ?? [];
    // Checking needs only the values; labels are resolved per locale when delivered.
    options[list] = lists[list].map((o) => ({ value: o.value, label: o.value }));
  }
  return { definition, lists, checked: resolveListOptions(definition, options) };
}
