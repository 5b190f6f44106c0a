import { at } from '../lib/problems.js';

/**
 * Plain JSON: what JSON.parse builds. A bundle is a JSON document; a caller in the same process could hand over
 * anything else (a Date, a Buffer, NaN, a class instance, an array hole), and the checks below it compare shapes,
 * not prototypes. So the whole input is checked to be plain JSON first, and the checked parts are copied out of it.
 */
function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The JSON path of the first value that is not plain JSON (`$` for the document itself), or null. A member whose
 * value is `undefined` counts as absent (JSON.stringify leaves it out). Recursive: call it on input whose depth
 * was bounded (`deeperThan`). The path is spelt only when something is found: a bundle has millions of members.
 */
export function firstNonJson(value: unknown): string | null {
  const trail: (string | number)[] = [];
  if (isJson(value, trail)) return null;
  let path = '$';
  for (const key of trail.reverse())
    path = path === '$' && typeof key === 'string' ? at('', key).replace(/^\./, '') : at(path, key);
  return path;
}

/** True when `value` is plain JSON; otherwise false, with the path to the culprit pushed onto `trail` (innermost first). */
function isJson(value: unknown, trail: (string | number)[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          // A hole or an undefined element is not JSON (JSON.stringify would write null).
          if (!Object.hasOwn(value, i) || value[i] === undefined || !isJson(value[i], trail)) {
            trail.push(i);
            return false;
          }
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const k of Object.keys(value)) {
        const v = value[k];
        if (v !== undefined && !isJson(v, trail)) {
          trail.push(k);
          return false;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * A deep copy of checked plain JSON: new objects and arrays, own members only (a `__proto__` member stays a
 * member), `undefined` members left out. What a validator returns is built from these copies, never the input.
 */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    // Assigning `__proto__` would set the copy's prototype instead of a member.
    if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: copyJson(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = copyJson(v);
  }
  return out;
}

/** A copy of a checked map of texts (`{ en: "…", de: "…" }`). */
export function copyTexts(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}
