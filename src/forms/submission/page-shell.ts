// The frame of Folio's own HTML pages for plain form posts (spec 4.4): the result of a post, and the form again
// after a failed one. No script, nothing loaded from elsewhere; the styles (forms.css and a few page rules) are
// inline under a per-response nonce, so the page holds a strict Content-Security-Policy.

import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../render/html.js';
import { formsCss } from './forms-css.js';

/** A fresh nonce for one response's `<style>` elements. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

// The spam trap's inline style is blocked by the policy: the class rule keeps it out of sight.
const PAGE_CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;background:Canvas;color:CanvasText}' +
  'main{max-width:40rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.6rem;line-height:1.25}' +
  '.folio-hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}' +
  '.folio-page-back{margin-top:1.5rem}';

/** A whole page: `main` is HTML (built with the renderer's escaping), the rest is escaped here. */
export function pageShell(opts: { lang: string; title: string; main: string; nonce: string }): string {
  return (
    `<!doctype html><html lang="${escapeHtml(opts.lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<title>${escapeHtml(opts.title)}</title><style nonce="${escapeHtml(opts.nonce)}">${formsCss()}${PAGE_CSS}</style>` +
    `</head><body><main><h1>${escapeHtml(opts.title)}</h1>${opts.main}</main></body></html>`
  );
}

/** A paragraph of text, escaped. */
export const paragraph = (text: string, className?: string): string =>
  `<p${className ? ` class="${escapeHtml(className)}"` : ''}>${escapeHtml(text)}</p>`;

/** A link back to the page the form is on, when there is one to go to. */
export function backLink(href: string | null, label: string): string {
  return href === null
    ? ''
    : `<p class="folio-page-back"><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`;
}

/**
 * Headers of such a page: styles only under its nonce, nothing else loads or runs; a form on it posts to Folio and
 * may be sent on to the token's origins (`_redirect`: Chromium checks form-action on the redirect too).
 */
export function pageHeaders(nonce: string, origins: readonly string[]): Record<string, string> {
  const formAction = ["'self'", ...origins].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
