/**
 * Writes a large space bundle for the import bench: the entries bench's base bundle (model,
 * option list, pages, the folder tree /blog/<year>/<month>, authors) plus posts up to `total` entries, every
 * localized field in all three locales (en, de, fr), each post with a block list. Deterministic (seeded), and
 * written as a stream so the generator never holds the whole file as one string.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { baseBundle, CATEGORIES, LOCALES, monthId, rng, text, YEARS } from './lib-entries-space.js';

const QUOTE_TYPE = {
  key: 'quote',
  kind: 'block',
  fields: [
    { key: 'text', type: 'textarea', localized: true },
    { key: 'by', type: 'text' },
  ],
};

function postEntry(i: number, r: () => number): Record<string, unknown> {
  const y = YEARS[Math.floor(r() * YEARS.length)] ?? 2026;
  const m = 1 + Math.floor(r() * 12);
  const at = new Date(
    Date.UTC(y, m - 1, 1 + Math.floor(r() * 28), Math.floor(r() * 24), Math.floor(r() * 60)),
  ).toISOString();
  const perLocale = <T>(f: () => T): Record<string, T> => Object.fromEntries(LOCALES.map((l) => [l, f()]));
  const para = (s: string) => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: s }] }],
  });
  const title = perLocale(() => text(r, 6));
  return {
    id: `ent_p${String(i).padStart(6, '0')}`,
    type: 'post',
    name: `Post ${i}`,
    slug: `post-${i}`,
    slugs: { de: `beitrag-${i}`, fr: `article-${i}` },
    parent: monthId(y, m),
    position: i,
    tags: ['news', 'howto', 'release', 'opinion', 'event'].filter(() => r() < 0.3),
    published: { at, firstAt: at },
    fields: {
      title,
      summary: perLocale(() => text(r, 20)),
      body: perLocale(() => para(text(r, 40))),
      category: `c${Math.floor(r() * CATEGORIES)}`,
      rating: 1 + Math.floor(r() * 5),
      featured: r() < 0.1,
      author: `ent_author${Math.floor(r() * 200)}`,
      seo: Object.fromEntries(
        LOCALES.map((l) => [l, { title: title[l], description: text(r, 12), noindex: r() < 0.02 }]),
      ),
      quotes: [{ type: 'quote', fields: { text: perLocale(() => text(r, 10)), by: text(r, 2) } }],
    },
  };
}

/** Writes the bundle to `file`; returns the number of entries in it. */
export async function writeImportBundle(
  file: string,
  spaceId: string,
  token: string,
  total: number,
): Promise<number> {
  const base = baseBundle(spaceId, token);
  const baseEntries = base.entries as Record<string, unknown>[];
  const types = (base.types as { key: string; fields: unknown[] }[]).map((t) =>
    t.key === 'post'
      ? { ...t, fields: [...t.fields, { key: 'quotes', type: 'blocks', blocks: ['quote'] }] }
      : t,
  );
  const head = { ...base, types: [...types, QUOTE_TYPE], entries: [] };
  const out = createWriteStream(file);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  // Everything but the entries, then the entries one per line.
  const json = JSON.stringify(head);
  const cut = json.indexOf('"entries":[]') + '"entries":['.length;
  await write(json.slice(0, cut));
  let n = 0;
  const emit = async (e: Record<string, unknown>) => write(`${n++ === 0 ? '' : ','}\n${JSON.stringify(e)}`);
  for (const e of baseEntries) await emit(e);
  const r = rng(7);
  for (let i = 0; n < total; i++) await emit(postEntry(i, r));
  await write(`\n${json.slice(cut)}\n`);
  out.end();
  await once(out, 'finish');
  return n;
}
