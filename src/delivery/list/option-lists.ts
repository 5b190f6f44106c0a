import { pickLocalized } from '../../content/locales.js';
import { notFound } from '../../errors/errors.js';
import { listDocs } from '../../store/authoring-repo.js';
import { readDocsAt } from '../../store/log-repo.js';
import type { DeliveryDeps, Scope } from '../delivery-service.js';

export const LIST_DOC_PARAMS = ['locale', 'cv', 'draft', 'release'] as const;

interface ListDoc {
  key: string;
  name?: string;
  options: { value: string; label: Record<string, string> }[];
}

/** The envelope Folio chose (spec 4.2: "not shown"): `{ list: { key, name, options: [{ value, label }] }, cv }`. */
export interface OptionListResponse {
  list: { key: string; name: string; options: { value: string; label: string }[] };
  cv: number;
}

/**
 * GET /lists/<key> (spec 2.8): labels resolved along the locale chain; an option with no label in any locale of
 * the chain is labelled with its value. Published lists are read at the cv; previews read the authored list.
 */
export async function optionList(deps: DeliveryDeps, scope: Scope, key: string): Promise<OptionListResponse> {
  let doc: ListDoc | undefined;
  // A NUL cannot be in a key (and PostgreSQL cannot compare text holding one).
  if (key.includes('\u0000')) throw notFound(`Option list not found.`);
  if (scope.view.mode === 'published') {
    doc = (await readDocsAt<ListDoc>(deps.store, scope.space.id, 'list', [key], scope.view.cv)).get(key);
  } else {
    doc = (await listDocs<ListDoc>(deps.store, scope.space.id, 'lists')).find((d) => d.key === key)?.doc;
  }
  if (!doc) throw notFound(`Option list "${key}" not found.`);
  const chain = scope.params.chain;
  return {
    list: {
      key: doc.key,
      name: doc.name ?? doc.key,
      options: doc.options.map((o) => ({ value: o.value, label: pickLocalized(o.label, chain) ?? o.value })),
    },
    cv: scope.view.cv,
  };
}
