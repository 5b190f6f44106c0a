// The configuration renderForm embeds in the form (`<script type="application/json" data-folio-config>`), read
// back and checked by the enhancer: the page is outside input like any other (STYLE rule 13).

import { type DeliveredForm, isJsonObject, parseDeliveredForm } from './definition.js';
import { DATA } from '../../../src/forms/render/ids.js';
import type { Messages } from '../../../src/forms/render/messages.js';

export interface FormConfig {
  form: DeliveredForm;
  prefix: string;
  /** the form's locale and its fallbacks, as renderForm resolved them (absent in pages rendered before) */
  localeChain: string[] | undefined;
  messages: Messages;
  timeZone: string | undefined;
  turnstileScriptUrl: string | undefined;
}

function strings(value: unknown): Messages {
  const out: Record<string, string> = {};
  if (isJsonObject(value)) for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

function localeList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const codes = value.filter((v): v is string => typeof v === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(v));
  return codes.length > 0 ? codes.slice(0, 20) : undefined;
}

const optString = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Reads the embedded configuration of a rendered form; throws (DefinitionError or SyntaxError) when it is not one. */
export function readConfig(form: HTMLFormElement): FormConfig {
  const script = form.querySelector(`script[type="application/json"][${DATA.config}]`);
  if (!script) throw new Error('folio form: no embedded configuration (render the form with renderForm)');
  const raw: unknown = JSON.parse(script.textContent ?? '');
  if (!isJsonObject(raw)) throw new Error('folio form: the embedded configuration is not an object');
  const prefix = optString(raw['prefix']);
  if (prefix === undefined) throw new Error('folio form: the embedded configuration has no prefix');
  return {
    form: parseDeliveredForm(raw['form']),
    prefix,
    localeChain: localeList(raw['localeChain']),
    messages: strings(raw['messages']),
    timeZone: optString(raw['timeZone']),
    turnstileScriptUrl: optString(raw['turnstileScriptUrl']),
  };
}
