// A leaf: reading records by keys that come from outside (field keys, preset names, locale codes, list keys).

/**
 * The value a record holds under `key` itself, never one it inherits: `{}['constructor']` is Object, and
 * `toString`, `valueOf`, `hasOwnProperty` and `__proto__` are there on every plain object too. Every lookup of
 * a key a client, a bundle or an author chose goes through this (or a Map, or a prototype-less record).
 */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record !== null && record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
