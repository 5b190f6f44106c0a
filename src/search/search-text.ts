import { pickLocalized } from '../content/locales.js';
import type { EntrySnapshot, FieldValues, TypeMap } from '../content/model.js';

/**
 * What semantic search embeds of an entry version, per locale (issue 13): the name, every text, textarea and
 * rich-text field, and the same fields of its blocks, nested ones included, each after fallback along the
 * locale's chain (spec 1.3), so a visitor of `de-ch` searches what a `de-ch` read delivers. Pure.
 */

const TEXT_TYPES = new Set(['text', 'textarea', 'richtext']);
/** Entries longer than this are cut: the index is for finding an entry, not for storing it. */
const MAX_TEXT = 40_000;
const MAX_DEPTH = 16;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function richText(node: unknown, parts: string[], depth = 0): void {
  if (!isObj(node) || depth > 64) return;
  if (typeof node.text === 'string') parts.push(node.text);
  if (Array.isArray(node.content)) {
    const inner: string[] = [];
    for (const c of node.content) richText(c, inner, depth + 1);
    // Paragraphs and headings end sentences; inline text nodes of one paragraph run on.
    parts.push(inner.join(node.type === 'paragraph' || node.type === 'heading' ? '' : '\n'));
  }
}

function fieldTexts(
  fields: FieldValues,
  typeKey: string,
  types: TypeMap,
  chain: readonly string[],
  parts: string[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  for (const def of types.get(typeKey)?.fields ?? []) {
    const raw = fields[def.key];
    if (TEXT_TYPES.has(def.type)) {
      const v = def.localized ? pickLocalized(isObj(raw) ? raw : undefined, chain) : raw;
      if (typeof v === 'string') parts.push(v);
      else if (def.type === 'richtext') richText(v, parts);
    } else if (def.type === 'blocks' && Array.isArray(raw)) {
      for (const block of raw)
        if (isObj(block) && typeof block.type === 'string' && isObj(block.fields))
          fieldTexts(block.fields, block.type, types, chain, parts, depth + 1);
    }
  }
}

/** The searchable text of a snapshot in each locale (`chains`: locale → its fallback chain). */
export function semanticTexts(
  snapshot: EntrySnapshot,
  types: TypeMap,
  chains: ReadonlyMap<string, readonly string[]>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [locale, chain] of chains) {
    const parts = [snapshot.name];
    fieldTexts(snapshot.fields, snapshot.type, types, chain, parts, 0);
    const text = parts
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter((p) => p !== '')
      .join('\n');
    out.set(locale, text.slice(0, MAX_TEXT));
  }
  return out;
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
