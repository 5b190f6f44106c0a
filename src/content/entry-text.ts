import { pickLocalized } from './locales.js';
import { own } from '../lib/own.js';
import type { EntrySnapshot, FieldValues, TypeMap } from './model.js';

/**
 * The text of an entry version as a reader sees it, per locale: the name, every text, textarea and rich-text
 * field, and the same fields of its blocks, nested ones included, each after fallback along the locale's chain
 * (spec 1.3). One walker for both searches: the list's full text (`/entries?search=`) and semantic search's
 * embeddings, so a word in a block is found by either. Pure.
 */

const TEXT_TYPES = new Set(['text', 'textarea', 'richtext']);
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
    const raw = own(fields, def.key);
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

/** The text of a snapshot in each locale (`chains`: locale → its fallback chain), cut at `maxChars`. */
export function entryTexts(
  snapshot: EntrySnapshot,
  types: TypeMap,
  chains: ReadonlyMap<string, readonly string[]>,
  maxChars: number,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [locale, chain] of chains) {
    const parts = [snapshot.name];
    fieldTexts(snapshot.fields, snapshot.type, types, chain, parts, 0);
    const text = parts
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter((p) => p !== '')
      .join('\n');
    out.set(locale, text.slice(0, maxChars));
  }
  return out;
}
