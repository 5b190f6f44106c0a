import { at } from './problems.js';

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
 * was bounded (`deeperThan`).
 */
export function firstNonJson(value: unknown, path = ''): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : path || '$';
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          // A hole or an undefined element is not JSON (JSON.stringify would write null).
          if (!Object.hasOwn(value, i) || value[i] === undefined) return at(path || '$', i);
          const found = firstNonJson(value[i], at(path || '$', i));
          if (found !== null) return found;
        }
        return null;
      }
      if (!isPlainObject(value)) return path || '$';
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const found = firstNonJson(v, path === '' ? at('', k).replace(/^\./, '') : at(path, k));
        if (found !== null) return found;
      }
      return null;
    }
    default:
      return path || '$';
  }
}

/**
 * A deep copy of checked plain JSON: new objects and arrays, own members only (a `__proto__` member stays a
 * member), `undefined` members left out. What a validator returns is built from these copies, never the input.
 */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, copyJson(v)]])),
    );
  return value;
}

/** A copy of a checked map of texts (`{ en: "…", de: "…" }`). */
export function copyTexts(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}
