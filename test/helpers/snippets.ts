import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The JavaScript and TypeScript snippets of README.md, client/README.md and docs/*.md. A snippet that cannot run
 * on its own against the demo space has `<!-- snippet: compile-only (why) -->` just before its fence: it is
 * then only compiled. One that needs an Astro build (`astro:content`, Astro's types) has
 * `<!-- snippet: astro-only (why) -->` and is neither compiled nor run here: the example Astro site holds the same
 * code, and test/astro-site.test.ts builds it.
 */

export const ROOT = join(import.meta.dirname, '..', '..');

export const DOC_FILES = [
  'README.md',
  'client/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

export interface Snippet {
  /** `file:line` of the opening fence. */
  name: string;
  lang: 'ts' | 'js';
  code: string;
  /** The reason given by a compile-only marker, or null when the snippet runs. */
  compileOnly: string | null;
}

const MARKER = /^<!-- snippet: compile-only \((.+)\) -->$/;
const ASTRO_ONLY = /^<!-- snippet: astro-only \((.+)\) -->$/;

export function snippetsOf(file: string): Snippet[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: Snippet[] = [];
  const fence = /^```(ts|js)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
    const before = text.slice(0, m.index).split('\n');
    const line = before.length;
    // The marker is the last non-blank line before the fence (Prettier puts a blank line between them).
    const previous = before
      .slice(0, -1)
      .reverse()
      .find((l) => l.trim() !== '');
    const marker = MARKER.exec(previous ?? '');
    if (ASTRO_ONLY.test(previous ?? '')) continue;
    out.push({
      name: `${file}:${line}`,
      lang: m[1] === 'js' ? 'js' : 'ts',
      code: m[2] ?? '',
      compileOnly: marker?.[1] ?? null,
    });
  }
  return out;
}

export function allSnippets(): Snippet[] {
  return DOC_FILES.flatMap(snippetsOf);
}
