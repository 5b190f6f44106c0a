// Reading back what `include` embedded: `included.entries` holds entries of every type, and a reference field holds
// ids. `findIncluded(answer, post.author, 'author')` finds the one with that id, narrowed to the type asked for.

import type { ContentModel, EntryOf, IncludedOf, TypeKey } from './values.js';

/** Anything carrying `included`: the answer of `byPath`, `get`, a global, a page of `list`. */
export interface WithIncluded<M extends ContentModel> {
  included: IncludedOf<M>;
}

/**
 * The included entry with this id when it has the type (or one of the types) asked for; undefined when it is
 * not there (not included, unpublished, another type) or the id is null (an empty reference field).
 */
export function findIncluded<M extends ContentModel, K extends TypeKey<M>>(
  answer: WithIncluded<M>,
  id: string | null | undefined,
  type: K | readonly K[],
): EntryOf<M, K> | undefined;
// The implementation sees entries structurally: which of the model's types one has is what it checks.
export function findIncluded(
  answer: { included: { entries: readonly { id: string; type: string }[] } },
  id: string | null | undefined,
  type: string | readonly string[],
): unknown {
  if (id === null || id === undefined) return undefined;
  const types: readonly string[] = typeof type === 'string' ? [type] : type;
  return answer.included.entries.find((e) => e.id === id && types.includes(e.type));
}
