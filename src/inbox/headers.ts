// What every answer under /inbox/ carries: a strict Content-Security-Policy (no inline script
// or style, nothing from another origin, never framed) and the headers that go with it.

export const INBOX_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const INBOX_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': INBOX_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
