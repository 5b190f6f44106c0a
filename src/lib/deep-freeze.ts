/**
 * Freezes a value and everything reachable from it, for objects shared between concurrent requests (cached
 * snapshots and renders): code that changed one would throw a TypeError instead of corrupting later responses.
 * Stops at what is frozen already, so a cached snapshot inside a new render is not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
