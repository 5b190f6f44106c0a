// The form as delivered (spec 2.9): texts resolved along the locale chain, shared lists resolved into
// options, translations, secrets and notification settings left out, status evaluated now (spec 3.1).

import { formStatus, usesTurnstile } from '../rules/status.js';
import type { FormStatus } from '../rules/status.js';
import { DEFAULT_HONEYPOT } from '../rules/types.js';
import type { FieldTranslation, FormDefinition, FormField, FormOption } from '../rules/types.js';

/** An option of a shared option list (spec 2.8): a value and a label per locale. */
export interface ListOption {
  value: string;
  label: Record<string, string>;
}

export interface DeliverOptions {
  /** chain[0] is the requested locale, then its fallbacks (spec 1 item 3) */
  localeChain: readonly string[];
  /** the space's default locale; authored base texts are in it */
  defaultLocale: string;
  lists: Readonly<Record<string, readonly ListOption[]>>;
  now: Date;
  nonSpamCount: number;
}

/**
 * A delivered field is the authored field minus `translations` and `list`: every other authored
 * member is kept as is (showIf, bounds, `today` in minDate/maxDate, accept, maxFiles, defaultValue,
 * fromQuery…), with label, help, placeholder, option labels and the consent link resolved to the
 * requested locale, and a shared list resolved into `options`.
 */
export type DeliveredField = Omit<FormField, 'translations' | 'list'>;

export interface DeliveredForm {
  key: string;
  name: string;
  locale: string;
  fields: DeliveredField[];
  honeypot: string;
  turnstile: boolean;
  /** null when the form does not use Turnstile */
  turnstileSiteKey: string | null;
  successMessage: string;
  status: FormStatus;
  closedMessage: string | null;
  opensAt: string | null;
  closesAt: string | null;
}

/** Delivered when a form has no success message in any locale of the chain. */
export const DEFAULT_SUCCESS_MESSAGE = 'Thank you. Your submission has been received.';

function own<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** The first non-empty text along the chain; null when no locale of the chain has one. */
export function resolveText(
  map: Readonly<Record<string, string>> | undefined,
  chain: readonly string[],
): string | null {
  for (const locale of chain) {
    const text = own(map, locale);
    if (typeof text === 'string' && text !== '') return text;
  }
  return null;
}

/** The requested chain, ending at the default locale (spec 1 item 3: "then to the default locale"). */
export function fullChain(localeChain: readonly string[], defaultLocale: string): string[] {
  return [...new Set([...localeChain, defaultLocale])];
}

interface TextContext {
  chain: readonly string[];
  defaultLocale: string;
  translations: Readonly<Record<string, FieldTranslation>> | undefined;
}

/**
 * One field text along the chain: a locale's translation, or at the default locale the authored base
 * text; a missing or empty translation falls back to the next locale, and finally to the base text.
 */
function pick(ctx: TextContext, base: string | undefined, get: (t: FieldTranslation) => string | undefined) {
  for (const locale of ctx.chain) {
    if (locale === ctx.defaultLocale) {
      if (base !== undefined) return base;
      continue;
    }
    const t = own(ctx.translations, locale);
    const text = t === undefined ? undefined : get(t);
    if (text !== undefined && text !== '') return text;
  }
  return base;
}

function listOptions(options: readonly ListOption[], chain: readonly string[]): FormOption[] {
  return options.map((o) => ({ value: o.value, label: resolveText(o.label, chain) ?? o.value }));
}

/** Resolves one authored field for delivery (also gives the server the consent wording, spec 2.10). */
export function localizeField(
  field: FormField,
  opts: Omit<DeliverOptions, 'now' | 'nonSpamCount'>,
): DeliveredField {
  const { translations, list, ...rest } = field;
  const ctx: TextContext = {
    chain: fullChain(opts.localeChain, opts.defaultLocale),
    defaultLocale: opts.defaultLocale,
    translations,
  };
  const out: DeliveredField = { ...rest };
  const set = (key: 'label' | 'help' | 'placeholder', text: string | undefined): void => {
    if (text !== undefined) out[key] = text;
  };
  set(
    'label',
    pick(ctx, field.label, (t) => t.label),
  );
  set(
    'help',
    pick(ctx, field.help, (t) => t.help),
  );
  set(
    'placeholder',
    pick(ctx, field.placeholder, (t) => t.placeholder),
  );

  if (list !== undefined) {
    // spec 2.9: shared option lists are resolved into options; an unknown list delivers none.
    out.options = listOptions(own(opts.lists, list) ?? [], ctx.chain);
  } else if (field.options !== undefined) {
    out.options = field.options.map((o) => ({
      value: o.value,
      label: pick(ctx, o.label, (t) => own(t.options, o.value)) ?? o.value,
    }));
  }
  if (field.link !== undefined) {
    const link = field.link;
    out.link = {
      label: pick(ctx, link.label, (t) => t.link?.label) ?? link.label,
      url: pick(ctx, link.url, (t) => t.link?.url) ?? link.url,
    };
  }
  return out;
}

/** Timestamps are delivered in the spec's form: UTC with milliseconds. */
function timestamp(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** spec 2.9: the delivered form. Never includes turnstileSecret, notify settings or confirmation email. */
export function deliverForm(def: FormDefinition, opts: DeliverOptions): DeliveredForm {
  const chain = fullChain(opts.localeChain, opts.defaultLocale);
  const s = def.settings;
  const turnstile = usesTurnstile(s);
  return {
    key: def.key,
    name: def.name,
    locale: opts.localeChain[0] ?? opts.defaultLocale,
    fields: def.fields.map((field) => localizeField(field, opts)),
    honeypot: s.honeypot ?? DEFAULT_HONEYPOT,
    turnstile,
    turnstileSiteKey: turnstile ? (s.turnstileSiteKey ?? null) : null,
    successMessage: resolveText(s.successMessage, chain) ?? DEFAULT_SUCCESS_MESSAGE,
    status: formStatus(s, { now: opts.now, nonSpamCount: opts.nonSpamCount }),
    closedMessage: resolveText(s.closedMessage, chain),
    opensAt: timestamp(s.opensAt),
    closesAt: timestamp(s.closesAt),
  };
}
