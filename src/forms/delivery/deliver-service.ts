import { defaultLocale } from '../../content/locales.js';
import { cvExpired, parseCommon } from '../../delivery/params.js';
import { invalidQuery, notFound } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import type { SpaceRow } from '../../store/spaces-repo.js';
import { currentSpace } from './current-space.js';
import { deliverForm, type DeliveredForm } from '../definition/index.js';
import { KEY_FORMAT } from '../definition/index.js';
import { FormSource, type LoadedForm } from './form-source.js';
import { readFormCounts } from '../authoring/forms-repo.js';

export interface FormResponse {
  form: DeliveredForm;
  cv: number;
}

function deliver(
  loaded: LoadedForm,
  space: SpaceRow,
  chain: readonly string[],
  count: number,
  now: Date,
): DeliveredForm {
  return deliverForm(loaded.definition, {
    localeChain: chain,
    defaultLocale: defaultLocale(space.settings),
    lists: loaded.lists,
    now,
    nonSpamCount: count,
  });
}

/**
 * `GET /forms/<key>` (spec 2.9, 4.4): the published form in the requested locale, `status` evaluated now (spec
 * 3.1; a cached response reflects the time it was produced). `cv` pins the definition like any delivery GET.
 */
export async function formByKey(
  source: FormSource,
  store: Store,
  req: { spaceId: string; key: string; query: Record<string, unknown>; now: Date },
): Promise<{ body: FormResponse; pinned: boolean }> {
  const space = await currentSpace(store, req.spaceId);
  if (!space) throw notFound(`Space "${req.spaceId}" not found.`);
  const params = parseCommon(req.query, space.settings);
  let cv = space.cv;
  if (params.cv !== undefined) {
    if (params.cv > space.cv)
      throw invalidQuery(`cv ${params.cv} is ahead of the current cv ${space.cv}.`, 'cv');
    if (params.cv < space.minCv) throw cvExpired(params.cv, space.minCv);
    cv = params.cv;
  }
  const loaded = KEY_FORMAT.test(req.key) ? await source.load(space.id, req.key, cv) : null;
  if (!loaded) throw notFound(`Form "${req.key}" not found.`);
  const counts = await readFormCounts(store, space.id, [req.key]);
  return {
    body: { form: deliver(loaded, space, params.chain, counts.get(req.key) ?? 0, req.now), cv },
    pinned: params.cv !== undefined,
  };
}

/**
 * Forms named by form fields of delivered entries (spec 2.9: `definition` in the entry's locale), as published
 * at the view's cv. A key without a published form is absent from the map: the field delivers `null`.
 */
export async function formsForEntries(
  store: Store,
  spaceId: string,
  keys: readonly string[],
  cv: number,
  chain: readonly string[],
): Promise<Map<string, DeliveredForm>> {
  const out = new Map<string, DeliveredForm>();
  const valid = keys.filter((k) => KEY_FORMAT.test(k));
  if (valid.length === 0) return out;
  const space = await currentSpace(store, spaceId);
  if (!space) return out;
  const loaded = await new FormSource(store).loadMany(spaceId, valid, cv);
  const counts = await readFormCounts(store, spaceId, [...loaded.keys()]);
  const now = new Date();
  for (const [key, form] of loaded) out.set(key, deliver(form, space, chain, counts.get(key) ?? 0, now));
  return out;
}
