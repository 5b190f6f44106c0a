/**
 * How deep parsed JSON may nest before anything walks it. Validators and renderers recurse over bodies and
 * bundles (rich text, blocks, form definitions); a body of 100,000 nested arrays overflows their stack, so
 * input deeper than this is refused before they run: 400 `invalid_body` for request bodies (src/server/
 * input-guard.ts), a problem at `$` for bundles. 128 leaves room for what the content rules already allow: rich
 * text nests 50 nodes (src/bundle/validate-fields.ts), two JSON levels per node, inside a bundle's wrappers.
 */
export const MAX_JSON_DEPTH = 128;

/** Arrays and plain records: what JSON.parse and the form-data parsers build. */
function childrenOf(node: unknown): readonly unknown[] | null {
  if (Array.isArray(node)) return node;
  if (typeof node !== 'object' || node === null) return null;
  const proto: unknown = Object.getPrototypeOf(node);
  // Buffers, streams and other objects are not JSON (and may hold cycles): never walked.
  return proto === Object.prototype || proto === null ? Object.values(node) : null;
}

/**
 * Whether a JSON value (or a form-data record) nests arrays and objects deeper than `max`: `{}` is depth 1,
 * `{"a":[1]}` depth 2, a scalar 0. Iterative, so it is safe on any input, and it stops at the first level too deep.
 */
export function deeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    const children = childrenOf(node);
    if (children === null) continue;
    if (depth + 1 > max) return true;
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
