// Folio's own page for a failed plain post, for sites that cannot show one (no `_redirect_error`, a static page
// asking for it with `_error_page=folio`, or a visitor over the rate limit): the form rendered again by the
// renderer sites use, from its definition in the visitor's language, each error beside its field and every typed
// value back in place — read from the posted body, nothing stored — styled with forms.css, and posting back to Folio
// with the original `_redirect`, `_redirect_error` and `_page`.

import { defaultLocale, localeChain } from '../../content/locales.js';
import type { FolioError } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { readFormCounts } from '../authoring/forms-repo.js';
import { deliverForm } from '../definition/index.js';
import { currentSpace } from '../delivery/current-space.js';
import type { FormSource } from '../delivery/form-source.js';
import { renderForm } from '../render/render.js';
import { catalogFor, usesTurnstile } from '../rules/index.js';
import { CONTROL_KEYS, controlString, visitorLocale } from './controls.js';
import { draftValues } from './drafts.js';
import { backLink, pageShell } from './page-shell.js';
import { fieldErrorsOf } from './result-page.js';

export interface FormAgain {
  spaceId: string;
  formKey: string;
  body: Readonly<Record<string, unknown>>;
  error: FolioError;
  /** Retry-After of a 429, for "try again in N seconds" */
  retryAfter: number | null;
  /** the public token the form was posted with: the form posts back with it (spec 5 rule 4) */
  token: string;
  now: Date;
  nonce: string;
  /** the page the form is on, for a link back */
  back: string | null;
}

/**
 * The page, or null when the form cannot be shown again (unknown space or form, a token the renderer refuses):
 * the caller then answers the plain result page.
 */
export async function formAgainPage(
  deps: { store: Store; forms: FormSource },
  req: FormAgain,
): Promise<string | null> {
  const space = await currentSpace(deps.store, req.spaceId);
  const loaded = space ? await deps.forms.load(space.id, req.formKey, space.cv) : null;
  if (!space || !loaded) return null;
  const def = loaded.definition;
  const locale = visitorLocale(space.settings, controlString(req.body, CONTROL_KEYS.locale));
  const chain = localeChain(space.settings, locale);
  const counts =
    def.settings.maxSubmissions === undefined || def.settings.maxSubmissions === null
      ? new Map<string, number>()
      : await readFormCounts(deps.store, space.id, [def.key]);
  const form = deliverForm(def, {
    localeChain: chain,
    defaultLocale: defaultLocale(space.settings),
    lists: loaded.lists,
    now: req.now,
    nonSpamCount: counts.get(def.key) ?? 0,
  });
  // A Turnstile form's post passed no challenge: what it carried is never shown back (nor kept as a draft).
  const echo = !usesTurnstile(def.settings) && req.error.code !== 'turnstile_failed';
  const fieldErrors = fieldErrorsOf(req.error);
  const control = (key: string): string | undefined => controlString(req.body, key);
  const redirect = control(CONTROL_KEYS.redirect);
  const redirectError = control(CONTROL_KEYS.redirectError);
  const page = control(CONTROL_KEYS.page);
  let html: string;
  try {
    html = renderForm(form, {
      // The page is Folio's: the form posts back to the same address.
      baseUrl: '',
      spaceId: space.id,
      token: req.token,
      ...(redirect === undefined ? {} : { redirect }),
      ...(redirectError === undefined ? {} : { redirectError }),
      ...(page === undefined ? {} : { page }),
      ...(control(CONTROL_KEYS.errorPage) === 'folio' ? { errorPage: 'folio' as const } : {}),
      error: req.error.code,
      ...(req.retryAfter === null ? {} : { retryAfter: req.retryAfter }),
      fieldErrors,
      ...(echo ? { values: draftValues(req.body, def.fields) } : {}),
      locales: space.settings.locales,
      timeZone: space.settings.timeZone,
      now: req.now,
      headingLevel: 2,
      styleNonce: req.nonce,
    });
  } catch {
    // renderForm refuses preview tokens: such a post gets the plain result page.
    return null;
  }
  const { catalog } = catalogFor(chain);
  return pageShell({
    lang: locale,
    title: catalog.notSentTitle,
    main: html + backLink(req.back, catalog.back_to_form),
    nonce: req.nonce,
  });
}
