import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntrySnapshot, TypeMap } from '../../../src/content/model.js';
import { chunkText, highlight, semanticTexts } from '../../../src/search/search-text.js';

const types: TypeMap = new Map([
  [
    'page',
    {
      key: 'page',
      kind: 'page',
      fields: [
        { key: 'title', type: 'text', localized: true },
        { key: 'body', type: 'richtext', localized: true },
        { key: 'count', type: 'number' },
        { key: 'sections', type: 'blocks', blocks: ['text', 'group'] },
      ],
    },
  ],
  ['text', { key: 'text', kind: 'block', fields: [{ key: 'copy', type: 'textarea', localized: true }] }],
  ['group', { key: 'group', kind: 'block', fields: [{ key: 'inner', type: 'blocks', blocks: ['text'] }] }],
]);

const snapshot = {
  id: 'ent_a',
  type: 'page',
  name: 'Returns',
  slug: 'returns',
  fields: {
    title: { en: 'Send it back', de: 'Zurücksenden' },
    body: {
      en: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Within 30 days.' }] }],
      },
    },
    count: 3,
    sections: [
      {
        id: 'blk_1',
        type: 'text',
        fields: { copy: { en: 'Refunds take a week.', de: 'Erstattung dauert eine Woche.' } },
      },
      {
        id: 'blk_2',
        type: 'group',
        fields: { inner: [{ id: 'blk_3', type: 'text', fields: { copy: { en: 'Nested words.' } } }] },
      },
    ],
  },
} as unknown as EntrySnapshot;

describe('semanticTexts', () => {
  it('takes the name, text and rich-text fields and the text of blocks, nested ones too, per locale', () => {
    const texts = semanticTexts(
      snapshot,
      types,
      new Map([
        ['en', ['en']],
        ['de', ['de', 'en']],
      ]),
    );
    expect(texts.get('en')).toBe(
      'Returns\nSend it back\nWithin 30 days.\nRefunds take a week.\nNested words.',
    );
    // German falls back to English where it has no text of its own (spec 1.3), and never shows numbers.
    expect(texts.get('de')).toBe(
      'Returns\nZurücksenden\nWithin 30 days.\nErstattung dauert eine Woche.\nNested words.',
    );
  });

  it('ignores malformed block lists and values instead of throwing', () => {
    const odd = {
      ...snapshot,
      fields: { title: 42, body: 'x', sections: [null, 1, { type: 9 }, { type: 'text' }] },
    };
    expect(semanticTexts(odd as unknown as EntrySnapshot, types, new Map([['en', ['en']]])).get('en')).toBe(
      'Returns',
    );
  });
});

describe('chunkText', () => {
  it('keeps a short text whole', () => {
    expect(chunkText('short text')).toEqual(['short text']);
  });

  it('covers a long text with overlapping chunks no longer than the size, cut at words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 600 }), (words) => {
        const text = words.join(' ');
        const chunks = chunkText(text, 200, 40);
        for (const c of chunks) expect(c.length).toBeLessThanOrEqual(200);
        // Every word of the text is in some chunk (nothing falls between two chunks).
        const joined = chunks.join(' ');
        for (const w of words) expect(joined).toContain(w);
        expect(chunks[0]).toBe(text.slice(0, chunks[0]!.length));
      }),
      { numRuns: 200 },
    );
  });
});

describe('highlight', () => {
  it('shows the passage around the first query word, cut at words', () => {
    const text = `${'lorem ipsum '.repeat(40)}the refund arrives within a week ${'dolor sit '.repeat(40)}`;
    const h = highlight(text, ['refund'], 80);
    expect(h).toContain('refund');
    expect(h.startsWith('…')).toBe(true);
    expect(h.endsWith('…')).toBe(true);
    expect(h.length).toBeLessThanOrEqual(82);
  });

  it('starts at the beginning when no word is found', () => {
    expect(highlight('a b c '.repeat(100), ['zebra'], 20).startsWith('a b c')).toBe(true);
  });
});
