// Types only: forms/ is above delivery/ in the import graph, and type imports order nothing at run time.
import type { DeliveredForm } from '../forms/definition/index.js';
import type { Store } from '../store/open-store.js';

/** Forms named by form fields of delivered entries (spec 2.9), as published at `cv`, in `chain`'s locale. */
export type FormsLoader = (
  store: Store,
  spaceId: string,
  keys: readonly string[],
  cv: number,
  chain: readonly string[],
) => Promise<Map<string, DeliveredForm>>;

let loader: FormsLoader | undefined;

/**
 * Delivery renders form fields but forms/ loads the forms (src/forms/delivery/deliver-service.ts); forms/ imports
 * delivery/, so the composition root hands the loader in (src/wiring/publish.ts).
 */
export function registerFormsLoader(load: FormsLoader): void {
  loader = load;
}

export function loadForms(...args: Parameters<FormsLoader>): ReturnType<FormsLoader> {
  if (!loader)
    throw new Error('The forms loader is not registered: call wireDomains() (src/wiring/publish.ts) first.');
  return loader(...args);
}
