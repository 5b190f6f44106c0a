import type { RawNode } from 'kysely';

/**
 * The literal SQL of a raw statement and of the raw pieces it is built from (`prepared()` and `sql` templates nest
 * them), for tests that recognise statements by their text. Not in textual order: a bag of fragments.
 */
export function fragments(node: RawNode): string[] {
  const nested = node.parameters.flatMap((p) =>
    (p as { kind: string }).kind === 'RawNode' ? fragments(p as RawNode) : [],
  );
  return [...node.sqlFragments, ...nested];
}
