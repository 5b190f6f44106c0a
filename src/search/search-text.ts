import { entryTexts } from '../content/entry-text.js';
import type { EntrySnapshot, TypeMap } from '../content/model.js';

/**
 * What semantic search embeds of an entry version, per locale: its text as `entryTexts` reads it
 * (name, text fields, rich text, blocks, after the locale's fallback chain), so a visitor of `de-ch` searches
 * what a `de-ch` read delivers. Pure.
 */

/** Entries longer than this are cut: the index is for finding an entry, not for storing it. */
const MAX_TEXT = 40_000;

/** The searchable text of a snapshot in each locale (`chains`: locale → its fallback chain). */
export function semanticTexts(
  snapshot: EntrySnapshot,
  types: TypeMap,
  chains: ReadonlyMap<string, readonly string[]>,
): Map<string, string> {
  return entryTexts(snapshot, types, chains, MAX_TEXT);
}

/** Characters per chunk: a few paragraphs, well inside what a sentence encoder reads at once. */
export const CHUNK_CHARS = 800;
const OVERLAP = 120;

/**
 * Splits a long text into overlapping chunks at paragraph, sentence or word boundaries, so a passage deep in a
 * long entry is still found (its chunk's vector is not averaged away). The first chunk always starts at the name.
 */
export function chunkText(text: string, size = CHUNK_CHARS, overlap = OVERLAP): string[] {
  if (text.length <= size) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const window = text.slice(start, end);
      const cut = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('. '), window.lastIndexOf(' '));
      if (cut > size / 2) end = start + cut + 1;
    }
    chunks.push(text.slice(start, end).trim());
    if (end >= text.length) break;
    // Start the next chunk a little before this one ended, at a word.
    let next = Math.max(start + 1, end - overlap);
    const space = text.indexOf(' ', next);
    if (space !== -1 && space < end) next = space + 1;
    start = next;
  }
  return chunks.filter((c) => c !== '');
}

/**
 * A short passage of `text` to show under a result: around the first query word found in it, else its start;
 * cut at words, with `…` where it was cut.
 */
export function highlight(text: string, words: readonly string[], max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const w of words) {
    if (w.length < 3) continue;
    const i = lower.indexOf(w);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  let start = at <= max / 3 ? 0 : at - Math.floor(max / 3);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space === -1 || space > start + 30 ? start : space + 1;
  }
  let end = Math.min(flat.length, start + max);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + max / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
