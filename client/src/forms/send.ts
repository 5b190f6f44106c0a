// The enhancer's requests: a submission as JSON and a file upload (spec 4.4), with their answers checked before
// use (STYLE rule 13) and every failure turned into one code: the server's (spec 7.3), `rate_limited` for 429,
// `network_error` when no answer came (spec 7.4: renderer codes).

import { isUploadId } from '../../../src/forms/rules/index.js';
import type { FieldErrorParams } from '../../../src/forms/rules/index.js';
import { isJsonObject } from './definition.js';

export interface ServerFieldError {
  code: string;
  params?: FieldErrorParams;
}

export interface Failure {
  ok: false;
  code: string;
  /** spec 7.1: `details.fields`, when the server named fields */
  fields: Record<string, ServerFieldError>;
  /** seconds, from Retry-After (spec 8) */
  retryAfter: number | null;
}

export type Submitted = { ok: true; successMessage: string } | Failure;
export type Uploaded = { ok: true; id: string } | Failure;

export interface SendOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

const failure = (
  code: string,
  fields: Record<string, ServerFieldError> = {},
  retryAfter: number | null = null,
): Failure => ({
  ok: false,
  code,
  fields,
  retryAfter,
});

function params(value: unknown): FieldErrorParams | undefined {
  if (!isJsonObject(value)) return undefined;
  const out: FieldErrorParams = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  return out;
}

function fieldsOf(details: unknown): Record<string, ServerFieldError> {
  const out: Record<string, ServerFieldError> = {};
  const fields = isJsonObject(details) ? details['fields'] : undefined;
  if (!isJsonObject(fields)) return out;
  for (const [key, e] of Object.entries(fields)) {
    if (!isJsonObject(e) || typeof e['code'] !== 'string') continue;
    const p = params(e['params']);
    out[key] = p ? { code: e['code'], params: p } : { code: e['code'] };
  }
  return out;
}

/** spec 7.1: `{ error: { code, message, details? } }`; anything else is the generic `error` (or 429's code). */
function failureOf(res: Response, body: unknown): Failure {
  const error = isJsonObject(body) ? body['error'] : undefined;
  const code =
    isJsonObject(error) && typeof error['code'] === 'string'
      ? error['code']
      : res.status === 429
        ? 'rate_limited'
        : 'error';
  const details = isJsonObject(error) ? error['details'] : undefined;
  const header = res.headers.get('retry-after');
  // Retry-After may also be an HTTP date; only the seconds form is simple enough to put in a sentence.
  const fromDetails = isJsonObject(details) ? details['retryAfter'] : undefined;
  const retryAfter =
    header !== null && /^\d{1,6}$/.test(header.trim())
      ? Number(header.trim())
      : typeof fromDetails === 'number' && Number.isInteger(fromDetails) && fromDetails >= 0
        ? fromDetails
        : null;
  return failure(code, fieldsOf(details), retryAfter);
}

async function request(
  url: string,
  init: RequestInit,
  opts: SendOptions,
): Promise<{ res: Response; body: unknown } | Failure> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  try {
    const res = await opts.fetch(url, { ...init, signal: abort.signal, credentials: 'omit' });
    const raw = await res.text();
    let body: unknown = null;
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      body = null;
    }
    return { res, body };
  } catch {
    // No answer at all: offline, DNS, CORS refusal, or our timeout.
    return failure('network_error');
  } finally {
    clearTimeout(timer);
  }
}

/** POST of the submission as JSON to the form's action URL (which carries the token, spec 5 rule 4). */
export async function postSubmission(
  url: string,
  values: Record<string, unknown>,
  opts: SendOptions,
): Promise<Submitted> {
  const out = await request(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(values),
    },
    opts,
  );
  if (!('res' in out)) return out;
  const { res, body } = out;
  if (res.ok && isJsonObject(body) && body['ok'] === true && typeof body['successMessage'] === 'string')
    return { ok: true, successMessage: body['successMessage'] };
  return res.ok ? failure('error') : failureOf(res, body);
}

/** The uploads URL of a form: its submissions URL with `uploads` in place of `submissions`, query kept. */
export function uploadUrl(submitUrl: string): string {
  const url = new URL(submitUrl);
  url.pathname = url.pathname.replace(/\/submissions\/?$/, '/uploads');
  return url.href;
}

/** One file for a file field (spec 4.4): multipart with `field` before `file`, and the challenge token. */
export async function uploadFile(
  url: string,
  field: string,
  file: File,
  token: string | null,
  opts: SendOptions,
): Promise<Uploaded> {
  const body = new FormData();
  body.append('field', field);
  if (token !== null) body.append('cf-turnstile-response', token);
  body.append('file', file, file.name);
  const out = await request(url, { method: 'POST', headers: { accept: 'application/json' }, body }, opts);
  if (!('res' in out)) return out;
  const { res, body: answer } = out;
  if (res.ok && isJsonObject(answer) && typeof answer['id'] === 'string' && isUploadId(answer['id']))
    return { ok: true, id: answer['id'] };
  return res.ok ? failure('error') : failureOf(res, answer);
}
