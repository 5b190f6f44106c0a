// HTML building blocks of the form renderer. Every text from a form definition (labels, options, help, messages)
// reaches the page through these functions only, so there is one place where escaping happens.

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and for quoted attribute values alike (both quote kinds included). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export type AttrValue = string | number | boolean | null | undefined;

/**
 * ` name="value"` pairs, escaped; `true` gives a bare boolean attribute, `false`, null and undefined leave the
 * attribute out. Names are ours (never from a definition), so only values need escaping.
 */
export function attrs(list: Readonly<Record<string, AttrValue>>): string {
  let out = '';
  for (const [name, value] of Object.entries(list)) {
    if (value === false || value === null || value === undefined) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

/** `<tag attrs>content</tag>`; `content` must already be HTML (escaped text or built markup). */
export function el(tag: string, list: Readonly<Record<string, AttrValue>>, content = ''): string {
  return `<${tag}${attrs(list)}>${content}</${tag}>`;
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` as \u escapes, so no text in the
 * data (a label holding `</script>`) can end the element; U+2028 and U+2029 too, for older parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** An http(s) link, or null: a definition's consent link must never become `javascript:` or `data:`. */
export function safeHttpUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
