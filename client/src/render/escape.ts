/** Text and attribute values for HTML: `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A URL safe to put in `href`/`src`: http(s), mailto, tel, a site path or a fragment; else null. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (/^(https?:|mailto:|tel:)/i.test(url)) return url;
  // A site path, not a protocol-relative URL (`//evil.example`), or a fragment or query.
  if (/^\/(?!\/)/.test(url) || /^[#?]/.test(url)) return url;
  return null;
}
