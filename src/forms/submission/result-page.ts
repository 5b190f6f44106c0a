// Folio's own HTML result page (spec 4.4: for browser form posts without a `_redirect` the token allows), in the
// visitor's language (`_locale` along the space's fallback chain): the shipped catalog's words, the form's own
// texts, field labels — never keys — beside each message, and a way back to the page the form is on. A failed
// post whose form can be shown again gets the form itself instead (hosted-page.ts).

import { defaultLocale, localeChain } from '../../content/locales.js';
import type { FolioError } from '../../errors/errors.js';
import type { Store } from '../../store/open-store.js';
import { currentSpace } from '../delivery/current-space.js';
import type { FormSource } from '../delivery/form-source.js';
import { localizeField, resolveText } from '../definition/index.js';
import {
  type Catalog,
  type FieldError,
  catalogFor,
  catalogMessage,
  isFieldErrorCode,
  labelled,
  variantFor,
} from '../rules/index.js';
import { CONTROL_KEYS, controlString, visitorLocale } from './controls.js';
import { backLink, pageShell, paragraph } from './page-shell.js';
import { escapeHtml } from '../render/html.js';

/** What a result page is written with: the visitor's locale, its catalog, and the form's labels there. */
export interface PageWords {
  locale: string;
  catalog: Catalog;
  /** Field key → label and type in the visitor's language; empty when the form is unknown. */
  fields: ReadonlyMap<string, { label: string; type: string }>;
  closedMessage: string | null;
}

/** Reads the space and form of a post to word its result page; English and no labels when there is neither. */
export async function pageWords(
  deps: { store: Store; forms: FormSource },
  spaceId: string,
  formKey: string,
  body: Readonly<Record<string, unknown>> | undefined,
): Promise<PageWords> {
  const space = await currentSpace(deps.store, spaceId).catch(() => null);
  const requested = body === undefined ? undefined : controlString(body, CONTROL_KEYS.locale);
  if (!space) return { ...catalogFor([requested ?? 'en']), fields: new Map(), closedMessage: null };
  const locale = visitorLocale(space.settings, requested);
  const chain = localeChain(space.settings, locale);
  const form = await deps.forms.load(space.id, formKey, space.cv).catch(() => null);
  const fields = new Map<string, { label: string; type: string }>();
  for (const field of form?.definition.fields ?? []) {
    const shown = localizeField(field, {
      localeChain: chain,
      defaultLocale: defaultLocale(space.settings),
      lists: form?.lists ?? {},
    });
    fields.set(field.key, { label: shown.label ?? field.key, type: field.type });
  }
  return {
    locale,
    catalog: catalogFor(chain).catalog,
    fields,
    closedMessage: form ? resolveText(form.definition.settings.closedMessage, chain) : null,
  };
}

/** The page of an accepted post: the form's success message under the catalog's "Thank you", and a way back. */
export function successPage(
  words: PageWords,
  successMessage: string,
  back: string | null,
  nonce: string,
): string {
  const main =
    `<div class="folio-form folio-form--sent" role="status">${paragraph(successMessage)}</div>` +
    backLink(back, words.catalog.back_to_form);
  return pageShell({ lang: words.locale, title: words.catalog.sentTitle, main, nonce });
}

const CLOSED_CODES = new Set(['form_closed', 'form_not_open', 'form_full']);

/** The page of a refused post: the code's message, one line per field naming its label, and a way back. */
export function failurePage(
  words: PageWords,
  error: FolioError,
  retryAfter: number | null,
  back: string | null,
  nonce: string,
): string {
  const { catalog } = words;
  let message: string;
  if (CLOSED_CODES.has(error.code) && words.closedMessage) message = words.closedMessage;
  else if (error.code === 'rate_limited' && retryAfter !== null)
    message = catalogMessage(catalog, 'rate_limited', { retryAfter }, 'retry');
  else message = catalogMessage(catalog, error.code === 'too_large' ? 'body_too_large' : error.code);
  const errors = fieldErrorsOf(error);
  const items = Object.entries(errors).map(([key, e]) => {
    const field = words.fields.get(key);
    const text = catalogMessage(catalog, e.code, e.params ?? {}, variantFor(field?.type));
    return labelled(field?.label ?? key, text);
  });
  const list = items.length > 0 ? `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>` : '';
  const main =
    `<div class="folio-alert" role="alert">${paragraph(message)}${list}</div>` +
    backLink(back, words.catalog.back_to_form);
  return pageShell({ lang: words.locale, title: words.catalog.notSentTitle, main, nonce });
}

/** `details.fields` of a validation error, parsed: only entries with a string code. */
export function fieldErrorsOf(error: FolioError): Record<string, Pick<FieldError, 'code' | 'params'>> {
  const fields: unknown = error.details?.['fields'];
  const out: Record<string, Pick<FieldError, 'code' | 'params'>> = {};
  if (typeof fields !== 'object' || fields === null) return out;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'object' || value === null) continue;
    const code: unknown = Reflect.get(value, 'code');
    const params: unknown = Reflect.get(value, 'params');
    if (typeof code !== 'string' || !isFieldErrorCode(code)) continue;
    out[key] = {
      code,
      ...(typeof params === 'object' && params !== null ? { params: paramsOf(params) } : {}),
    };
  }
  return out;
}

function paramsOf(value: object): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  return out;
}
