// A plain post that failed comes back whole: the error redirect carries the failing fields and their codes
// (`fields=email:invalid_email,name:required`) and, when Folio kept what the visitor typed, a draft id
// (`draft=drf_…`) the page reads back with the form's public token, on every view within ten minutes. Nothing the
// visitor typed is in the URL.

import type { FieldError, PrefillValue } from '../../../src/forms/render/render-field.js';
import { readFormError } from '../../../src/forms/render/render.js';

export interface FormResult {
  /** `error=<code>`, code-shaped, or null */
  error: string | null;
  /** `fields=<key>:<code>,…`: what renderForm marks beside each field and lists in the summary */
  fieldErrors: Record<string, FieldError>;
  /** `draft=<id>`: the kept values, to read with readDraft */
  draft: string | null;
}

const FIELD_ERROR = /^([A-Za-z][A-Za-z0-9_]{0,63}):([a-z_]{1,64})$/;

/**
 * What a failed plain post came back with, from the page's query. Anything not shaped like a key and a code is
 * ignored rather than echoed, so a crafted link cannot put words into the page.
 */
export function readFormResult(query: URLSearchParams | string): FormResult {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const fieldErrors: Record<string, FieldError> = {};
  for (const part of (params.get('fields') ?? '').split(',').slice(0, 200)) {
    const m = FIELD_ERROR.exec(part);
    if (m?.[1] && m[2] && !Object.hasOwn(fieldErrors, m[1])) fieldErrors[m[1]] = { code: m[2] };
  }
  const draft = params.get('draft');
  return {
    error: readFormError(params),
    fieldErrors,
    draft: draft !== null && /^drf_[0-9A-Za-z]{24}$/.test(draft) ? draft : null,
  };
}

export interface ReadDraftOptions {
  /** Folio's address, e.g. `https://folio.example.com` (no `/v1`) */
  baseUrl: string;
  spaceId: string;
  /** the form's public token */
  token: string;
  formKey: string;
  draft: string;
  fetch?: typeof fetch;
}

/**
 * The values a failed plain post kept (GET /v1/<space>/forms/<key>/drafts/<id>), for renderForm's `values`; they
 * can be read on every view of the error page for ten minutes. Null when the draft is gone (older than ten
 * minutes) or cannot be read: the form then shows its errors with empty fields.
 */
export async function readDraft(opts: ReadDraftOptions): Promise<Record<string, PrefillValue> | null> {
  const e = encodeURIComponent;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/v1/${e(opts.spaceId)}/forms/${e(opts.formKey)}/drafts/${e(opts.draft)}`;
  let body: unknown;
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      headers: { authorization: `Bearer ${opts.token}`, accept: 'application/json' },
    });
    if (!res.ok) return null;
    body = await res.json();
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || !('values' in body)) return null;
  const values: unknown = body.values;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return null;
  const out: Record<string, PrefillValue> = {};
  for (const [key, v] of Object.entries(values)) {
    if (typeof v === 'string' || typeof v === 'boolean') out[key] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[key] = v;
  }
  return out;
}
