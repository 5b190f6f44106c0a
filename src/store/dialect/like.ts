/** `\`, `%` and `_` of the search text stand for themselves in the LIKE pattern (escape character `\`). */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How many trigrams (runs of three characters, counted in code points) a term has: 0 below three characters. */
export function trigramsOf(term: string): number {
  return Math.max(0, [...term].length - 2);
}

/**
 * `text` as a PostgreSQL dollar-quoted literal (`$q$…$q$`, the tag chosen so the text does not hold it): no
 * character inside is special, whatever `standard_conforming_strings` says, so it is safe for any text.
 */
export function dollarQuoted(text: string): string {
  let tag = 'q';
  while (text.includes(`$${tag}$`)) tag += 'q';
  return `$${tag}$${text}$${tag}$`;
}
