// spec 2.13: "Repeated names in form data (`topics` or `topics[]`) become a list." Shared by the
// server's body parser and the browser renderer, which both hold form data as name/value pairs.

/** One name/value pair of form data, in document order. */
export type FormEntry = readonly [name: string, value: string];

/**
 * Folds form-data pairs into a prototype-less record: a name seen once is a string, a repeated name
 * or a name ending in `[]` is a list (under the name without `[]`).
 */
export function formDataToRecord(entries: Iterable<FormEntry>): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [rawName, value] of entries) {
    const isList = rawName.endsWith('[]');
    const name = isList ? rawName.slice(0, -2) : rawName;
    const prev = out[name];
    if (prev === undefined) out[name] = isList ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[name] = [prev, value];
  }
  return out;
}
