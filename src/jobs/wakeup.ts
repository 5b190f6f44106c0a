import type { Store } from '../store/open-store.js';

const listeners = new WeakMap<Store, Set<() => void>>();

/** Subscribes to "jobs were enqueued and committed" in this process; returns the unsubscribe function. */
export function onJobsEnqueued(store: Store, listener: () => void): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Call after a transaction that enqueued jobs committed (publishes signal through `store.published`
 * already): the in-process runner picks them up at once instead of at its next poll.
 */
export function jobsEnqueued(store: Store): void {
  for (const l of listeners.get(store) ?? []) l();
}
