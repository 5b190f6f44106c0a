// How a submission answers plain HTML posts (spec 4.4 "Redirect rules", spec 5 rule 4): a 303 to `_redirect`
// on success, to `_redirect_error` (or back to the page it came from) with `?error=<code>` on failure — only to
// origins of the token, never for tokens without origins — else a minimal HTML page, or JSON for API clients.

import type { FastifyRequest } from 'fastify';
import type { SubmissionBody } from './body-parsers.js';
import { CONTROL_KEYS, controlString } from './controls.js';

function mediaType(request: FastifyRequest): string {
  const header = request.headers['content-type'];
  return (typeof header === 'string' ? (header.split(';')[0] ?? '') : '').trim().toLowerCase();
}

/** A body sent by an HTML form (no script decides what happens with the answer). */
export function isFormPost(request: FastifyRequest): boolean {
  const type = mediaType(request);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

function accepts(request: FastifyRequest, type: string): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.toLowerCase().includes(type);
}

/**
 * Redirects and HTML pages are for browsers posting forms: a form encoding, and no `Accept: application/json`
 * (scripts that post FormData and ask for JSON get JSON, and a script never gets a 303 it did not ask for).
 */
export function isPlainHtmlPost(request: FastifyRequest): boolean {
  return isFormPost(request) && !accepts(request, 'application/json');
}

/** A browser navigation asks for text/html; fetch() sends `*\/*` and gets JSON. */
export function wantsHtmlPage(request: FastifyRequest): boolean {
  return isPlainHtmlPost(request) && accepts(request, 'text/html');
}

/** An absolute http(s) URL on one of the token's origins; tokens without origins never redirect (no open redirect). */
export function allowedTarget(raw: string | undefined, origins: readonly string[]): URL | null {
  if (raw === undefined || origins.length === 0) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return origins.includes(url.origin) ? url : null;
}

export function successRedirect(body: SubmissionBody, origins: readonly string[]): string | null {
  return allowedTarget(controlString(body.values, CONTROL_KEYS.redirect), origins)?.href ?? null;
}

/**
 * `_redirect_error`, or — for a form that has `_redirect` — the page it came from (`_page`, else the Referer),
 * with `error=<code>` set in its query (the rest of the query and the fragment are kept).
 */
export function errorRedirect(
  body: SubmissionBody,
  referer: string | null,
  origins: readonly string[],
  code: string,
): URL | null {
  const explicit = controlString(body.values, CONTROL_KEYS.redirectError);
  const back =
    controlString(body.values, CONTROL_KEYS.redirect) === undefined
      ? undefined
      : (controlString(body.values, CONTROL_KEYS.page) ?? referer ?? undefined);
  const target = allowedTarget(explicit ?? back, origins);
  if (!target) return null;
  target.searchParams.set('error', code);
  return target;
}

/**
 * The page a form was posted from (`_page`, else the Referer), for a link back: an http(s) URL, on one of the
 * token's origins when it has any. A link, never a redirect: it goes nowhere the visitor does not choose.
 */
export function pageBack(
  body: SubmissionBody | undefined,
  referer: string | null,
  origins: readonly string[],
): string | null {
  const raw =
    (body === undefined ? undefined : controlString(body.values, CONTROL_KEYS.page)) ?? referer ?? undefined;
  if (raw === undefined) return null;
  if (origins.length > 0) return allowedTarget(raw, origins)?.href ?? null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Failures after which the form is worth showing again: the visitor can fix what they typed, or wait and retry. */
const FORM_AGAIN = new Set([
  'validation_failed',
  'already_submitted',
  'submission_too_large',
  'rate_limited',
  'turnstile_failed',
  'form_closed',
  'form_not_open',
  'form_full',
]);

/**
 * Whether a failed browser post gets Folio's own page with the form again, rather than a redirect: when the site
 * asked for it (`_error_page=folio`), when it named no page to show errors (`_redirect_error`) or one the token
 * does not allow (`redirects`: whether the error redirect would be followed), and always for `rate_limited` — its
 * values come back from the posted body, so nothing is stored for a visitor who is over the limit.
 */
export function wantsFormAgain(body: SubmissionBody, code: string, redirects: boolean): boolean {
  if (!FORM_AGAIN.has(code)) return false;
  return (
    code === 'rate_limited' ||
    !redirects ||
    controlString(body.values, CONTROL_KEYS.errorPage) === 'folio' ||
    controlString(body.values, CONTROL_KEYS.redirectError) === undefined
  );
}
