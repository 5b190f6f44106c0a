/**
 * Generates a large published space for the entries bench: a small bundle imported the normal way (types, an
 * option list, pages, folders /blog/<year>/<month>, authors), then posts written in bulk in one publish
 * (one cv) straight into the published log and the list tables, the way `publishSpaceState` writes a space
 * but with multi-row inserts. Deterministic (seeded), so every run and both engines get the same content.
 */
import type { Transaction } from 'kysely';
import type { BlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { ContentTypeDef, EntrySnapshot } from '../src/content/model.js';
import { pathKey } from '../src/lib/path-key.js';
import { putListVersions } from '../src/delivery/list/list-write-repo.js';
import type { StoreDialect } from '../src/store/dialect/dialect.js';
import type { Store } from '../src/store/open-store.js';
import type { Database } from '../src/store/schema.js';
import { withPublish } from '../src/content/publish-log.js';

export const POST_TYPE: ContentTypeDef = {
  key: 'post',
  kind: 'collection',
  pages: true,
  fields: [
    { key: 'title', type: 'text', localized: true },
    { key: 'summary', type: 'textarea', localized: true },
    { key: 'body', type: 'richtext', localized: true },
    { key: 'category', type: 'option', list: 'categories' },
    { key: 'rating', type: 'number' },
    { key: 'featured', type: 'boolean' },
    { key: 'author', type: 'reference', to: ['author'] },
    { key: 'seo', type: 'seo', localized: true },
  ],
};

export const LOCALES = ['en', 'de', 'fr'] as const;
export const CATEGORIES = 20;
export const YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026];
const AUTHORS = 200;

/** A small deterministic PRNG (mulberry32): same content on every run and engine. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 3000 pseudo-words; Zipf-like picks give common and rare words for the search bench.
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'to',
  'sa',
  'vel',
  'dor',
  'un',
  'ba',
  'qui',
  'nes',
  'far',
  'po',
  'lin',
];
export const WORDS = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 15; n > 0; n = Math.floor(n / 15)) w += SYLLABLES[n % 15];
  return w;
});

export function text(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(WORDS.length * r() ** 3)] ?? 'ka');
  return out.join(' ');
}

export const pad = (n: number) => String(n).padStart(2, '0');
export const monthId = (y: number, m: number) => `ent_m${y}${pad(m)}`;

/** The base bundle: model, option list, a few pages, the folder tree and the authors. */
export function baseBundle(spaceId: string, token: string, ai = false): Record<string, unknown> {
  const published = { at: '2026-01-01T00:00:00.000Z', firstAt: '2019-01-01T00:00:00.000Z' };
  const loc = (s: string) => ({ en: s, de: `${s} (de)`, fr: `${s} (fr)` });
  const entries: Record<string, unknown>[] = [
    {
      id: 'ent_home',
      type: 'page',
      name: 'Home',
      slug: '',
      parent: null,
      position: 0,
      tags: [],
      published,
      fields: { title: loc('Home') },
    },
    {
      id: 'ent_blog',
      type: 'folder',
      name: 'Blog',
      slug: 'blog',
      parent: null,
      position: 100,
      tags: [],
      published,
      fields: {},
    },
  ];
  for (let i = 1; i <= 30; i++)
    entries.push({
      id: `ent_page${i}`,
      type: 'page',
      name: `Page ${i}`,
      slug: `page-${i}`,
      slugs: { de: `seite-${i}` },
      parent: i > 10 ? `ent_page${i % 10 || 10}` : null,
      position: i,
      tags: [],
      published,
      fields: { title: loc(`Page ${i}`) },
    });
  for (const y of YEARS) {
    entries.push({
      id: `ent_y${y}`,
      type: 'folder',
      name: String(y),
      slug: String(y),
      parent: 'ent_blog',
      position: y,
      tags: [],
      published,
      fields: {},
    });
    for (let m = 1; m <= 12; m++)
      entries.push({
        id: monthId(y, m),
        type: 'folder',
        name: `${y}-${pad(m)}`,
        slug: pad(m),
        parent: `ent_y${y}`,
        position: m,
        tags: [],
        published,
        fields: {},
      });
  }
  for (let a = 0; a < AUTHORS; a++)
    entries.push({
      id: `ent_author${a}`,
      type: 'author',
      name: `Author ${a}`,
      slug: `author-${a}`,
      parent: null,
      position: a,
      tags: [],
      published,
      fields: { name: `Author ${a}` },
    });
  return {
    format: 'folio-bundle@1',
    space: {
      id: spaceId,
      name: 'Bench',
      ...(ai ? { ai: true } : {}),
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
        { code: 'fr', fallbacks: [] },
      ],
    },
    tokens: [{ kind: 'public', value: token }],
    types: [
      {
        key: 'page',
        kind: 'page',
        fields: [
          { key: 'title', type: 'text', localized: true },
          { key: 'seo', type: 'seo' },
        ],
      },
      { key: 'folder', kind: 'folder', fields: [] },
      POST_TYPE,
      { key: 'author', kind: 'collection', pages: false, fields: [{ key: 'name', type: 'text' }] },
    ],
    assets: [],
    entries,
    lists: [
      {
        key: 'categories',
        options: Array.from({ length: CATEGORIES }, (_, c) => ({
          value: `c${c}`,
          label: loc(`Category ${c}`),
        })),
      },
    ],
    releases: [],
    menus: [],
    redirects: [],
    forms: [],
    webhooks: [],
  };
}

function post(i: number, r: () => number): EntrySnapshot {
  const y = YEARS[Math.floor(r() * YEARS.length)] ?? 2026;
  const m = 1 + Math.floor(r() * 12);
  const at = new Date(
    Date.UTC(y, m - 1, 1 + Math.floor(r() * 28), Math.floor(r() * 24), Math.floor(r() * 60)),
  );
  const slugs = { en: `post-${i}`, de: `beitrag-${i}`, fr: `article-${i}` };
  const base = `/blog/${y}/${pad(m)}`;
  const para = (s: string) => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: s }] }],
  });
  const title = { en: text(r, 6), de: text(r, 6), ...(r() < 0.7 ? { fr: text(r, 6) } : {}) };
  return {
    id: `ent_p${String(i).padStart(6, '0')}`,
    type: 'post',
    name: `Post ${i}`,
    slug: slugs.en,
    slugs: { de: slugs.de, fr: slugs.fr },
    parentId: monthId(y, m),
    position: i,
    tags: ['news', 'howto', 'release', 'opinion', 'event'].filter(() => r() < 0.3),
    fields: {
      title,
      summary: { en: text(r, 25), de: text(r, 25) },
      body: { en: para(text(r, 60)), de: para(text(r, 60)) },
      category: `c${Math.floor(r() * CATEGORIES)}`,
      rating: 1 + Math.floor(r() * 5),
      featured: r() < 0.1,
      author: `ent_author${Math.floor(r() * AUTHORS)}`,
      seo: { en: { title: title.en, description: text(r, 12), noindex: r() < 0.02 } },
    },
    publishedAt: at.toISOString(),
    firstPublishedAt: at.toISOString(),
    paths: { en: `${base}/${slugs.en}`, de: `${base}/${slugs.de}`, fr: `${base}/${slugs.fr}` },
  };
}

async function writePosts(
  tx: Transaction<Database>,
  dialect: StoreDialect,
  spaceId: string,
  cv: number,
  posts: EntrySnapshot[],
) {
  for (let i = 0; i < posts.length; i += 1000) {
    const chunk = posts.slice(i, i + 1000);
    await tx
      .insertInto('entry_versions')
      .values(
        chunk.map((s) => ({
          space_id: spaceId,
          entry_id: s.id,
          cv_from: cv,
          cv_to: null,
          type: s.type,
          type_kind: 'collection',
          parent_id: s.parentId,
          position: s.position,
          name: s.name,
          published_at: s.publishedAt,
          first_published_at: s.firstPublishedAt,
          doc: JSON.stringify(s),
        })),
      )
      .execute();
    const paths = chunk.flatMap((s) =>
      Object.entries(s.paths ?? {}).map(([locale, path]) => ({
        space_id: spaceId,
        locale,
        path_key: pathKey(path),
        entry_id: s.id,
        cv_from: cv,
        cv_to: null,
      })),
    );
    await tx.insertInto('entry_paths').values(paths).execute();
    await putListVersions(
      tx,
      dialect,
      spaceId,
      cv,
      chunk.map((snapshot) => ({ snapshot, typeKind: 'collection' })),
    );
  }
}

/** Creates `spaceId` with `total` published entries (posts fill up what the base bundle leaves). */
export async function generateSpace(
  store: Store,
  blobs: BlobStore,
  spaceId: string,
  token: string,
  total: number,
  opts: { ai?: boolean } = {},
): Promise<{ posts: EntrySnapshot[] }> {
  const bundle = baseBundle(spaceId, token, opts.ai ?? false);
  await importBundle(store, blobs, bundle, { baseDir: '.' });
  const r = rng(42);
  const count = total - (bundle.entries as unknown[]).length;
  const posts = Array.from({ length: count }, (_, i) => post(i, r));
  await withPublish(store, spaceId, (tx, cv) => writePosts(tx, store.dialect, spaceId, cv, posts));
  return { posts };
}
