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

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A minimal, self-contained page (no scripts, no external resources) for browsers without a redirect. */
export function htmlPage(opts: {
  title: string;
  message: string;
  items?: readonly string[];
  lang?: string;
}): string {
  const items =
    opts.items && opts.items.length > 0
      ? `<ul>${opts.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`
      : '';
  return (
    `<!doctype html><html lang="${escapeHtml(opts.lang ?? 'en')}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(opts.title)}</title>` +
    `</head><body><h1>${escapeHtml(opts.title)}</h1><p>${escapeHtml(opts.message)}</p>${items}</body></html>`
  );
}

/** Headers of an HTML page: nothing in it may run or load anything. */
export const HTML_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
} as const;
