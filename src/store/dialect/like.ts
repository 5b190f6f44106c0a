/** `\`, `%` and `_` of the search text stand for themselves in the LIKE pattern (escape character `\`). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How many trigrams (runs of three characters, counted in code points) a term has: 0 below three characters. */
export function trigramsOf(term: string): number {
  return Math.max(0, [...term].length - 2);
}
