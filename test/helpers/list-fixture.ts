import { importBundle } from '../../src/bundle/import-bundle.js';
import type { Config } from '../../src/config/config.js';
import { serveEnv, type TestApp } from './app.js';
import { type Engine, openTestEnv } from './engines.js';

/**
 * A catalog space for list tests: one field of every filterable type on `item`, values chosen so
 * typed comparison matters (9 < 10 as numbers, not as text), some values missing, localized titles with
 * fallbacks (de-ch → de → en), tags, references, folders two levels deep, a noindex SEO field, a global.
 */
export const LIST_TOKENS = {
  public: 'folio_pub_ListTestPublicToken00000001',
  preview: 'folio_prv_ListTestPreviewToken0000002',
};
export const LIST_SPACE = 'spc_lists';

const at = (day: number) => ({
  at: `2026-02-${String(day).padStart(2, '0')}T10:00:00.000Z`,
  firstAt: `2025-12-${String(31 - day).padStart(2, '0')}T10:00:00.000Z`,
});

interface Item {
  id: string;
  name: string;
  parent: string;
  position: number;
  tags: string[];
  fields: Record<string, unknown>;
}

const items: Item[] = [
  {
    id: 'ent_i1',
    name: 'Lamp',
    parent: 'ent_shop',
    position: 3,
    tags: ['new', 'sale'],
    fields: {
      title: { en: 'Alpha lamp', de: 'Alpha Lampe' },
      price: 10,
      released: '2024-01-15',
      updated: '2024-01-15T08:00:00.000Z',
      active: true,
      color: 'red',
      maker: 'ent_m1',
      related: ['ent_i2'],
      blurb: 'A bright reading lamp',
    },
  },
  {
    id: 'ent_i2',
    name: 'chair',
    parent: 'ent_shop',
    position: 1,
    tags: ['sale'],
    fields: {
      title: { en: 'Beta chair' },
      price: 25.5,
      released: '2024-03-01',
      updated: '2024-03-01T12:30:00.000Z',
      active: false,
      color: 'blue',
      maker: 'ent_m2',
      related: ['ent_i1', 'ent_i3'],
      blurb: 'A comfortable chair',
    },
  },
  {
    id: 'ent_i3',
    name: 'Desk',
    parent: 'ent_shop',
    position: 2,
    tags: [],
    fields: {
      title: { en: 'Gamma desk', de: 'Gamma Tisch', 'de-ch': 'Gamma Pult' },
      price: 100,
      released: '2023-12-31',
      updated: '2023-12-31T23:59:59.999Z',
      active: true,
      color: 'green',
      maker: 'ent_m1',
      related: [],
    },
  },
  {
    id: 'ent_i4',
    name: 'shelf',
    parent: 'ent_shop',
    position: 4,
    tags: ['new'],
    fields: { title: { en: 'delta shelf' }, price: 9, released: '2024-01-02' },
  },
  {
    id: 'ent_i5',
    name: 'Clock',
    parent: 'ent_sale',
    position: 1,
    tags: ['clearance'],
    fields: {
      title: { de: 'Epsilon Uhr' },
      price: -3,
      released: '2025-06-30',
      updated: '2025-06-30T00:00:00.000Z',
      active: false,
      color: 'red',
      maker: 'ent_m2',
      related: ['ent_i4'],
    },
  },
  {
    id: 'ent_i6',
    name: 'Stool',
    parent: 'ent_sale',
    position: 0,
    tags: ['new', 'sale', 'clearance'],
    fields: {
      title: { en: 'Zeta stool', de: 'Zeta Hocker' },
      updated: '2024-06-01T00:00:00.000Z',
      active: true,
      color: 'blue',
      maker: 'ent_m1',
      related: ['ent_i2'],
      seo: { en: { title: 'Stool', noindex: true }, de: { title: 'Hocker', noindex: false } },
    },
  },
];

export function listBundle(): Record<string, unknown> {
  const entry = (e: Record<string, unknown>, day: number) => ({
    slug: String(e.name).toLowerCase(),
    tags: [],
    published: at(day),
    fields: {},
    ...e,
  });
  return {
    format: 'folio-bundle@1',
    space: {
      id: LIST_SPACE,
      name: 'Lists',
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
        { code: 'de-ch', fallbacks: ['de'] },
      ],
    },
    tokens: [
      { kind: 'public', value: LIST_TOKENS.public },
      { kind: 'preview', value: LIST_TOKENS.preview },
    ],
    types: [
      { key: 'page', kind: 'page', fields: [{ key: 'title', type: 'text', localized: true }] },
      { key: 'folder', kind: 'folder', fields: [] },
      {
        key: 'item',
        kind: 'collection',
        pages: true,
        fields: [
          { key: 'title', type: 'text', localized: true },
          { key: 'price', type: 'number' },
          { key: 'released', type: 'date' },
          { key: 'updated', type: 'datetime' },
          { key: 'active', type: 'boolean' },
          { key: 'color', type: 'option', list: 'colors' },
          { key: 'maker', type: 'reference', to: ['maker'] },
          { key: 'related', type: 'reference', to: ['item'], many: true },
          { key: 'blurb', type: 'textarea' },
          { key: 'seo', type: 'seo', localized: true },
        ],
      },
      { key: 'maker', kind: 'collection', pages: false, fields: [{ key: 'name', type: 'text' }] },
      { key: 'footer', kind: 'global', fields: [{ key: 'text', type: 'text' }] },
    ],
    assets: [],
    entries: [
      entry(
        { id: 'ent_about', type: 'page', name: 'About', slugs: { de: 'ueber' }, parent: null, position: 0 },
        1,
      ),
      entry(
        { id: 'ent_shop', type: 'folder', name: 'Shop', slugs: { de: 'laden' }, parent: null, position: 1 },
        1,
      ),
      entry({ id: 'ent_sale', type: 'folder', name: 'Sale', parent: 'ent_shop', position: 9 }, 1),
      entry(
        { id: 'ent_shophome', type: 'page', name: 'Shop home', slug: '', parent: 'ent_shop', position: 0 },
        1,
      ),
      ...items.map((i, n) => entry({ ...i, type: 'item', slug: i.name.toLowerCase() }, 10 + n)),
      entry(
        {
          id: 'ent_m1',
          type: 'maker',
          name: 'Maker One',
          slug: 'one',
          parent: null,
          position: 0,
          fields: { name: 'One' },
        },
        2,
      ),
      entry(
        {
          id: 'ent_m2',
          type: 'maker',
          name: 'Maker Two',
          slug: 'two',
          parent: null,
          position: 1,
          fields: { name: 'Two' },
        },
        3,
      ),
      entry({ id: 'ent_footer', type: 'footer', name: 'Footer', parent: null, position: 0 }, 4),
      {
        id: 'ent_unpublished',
        type: 'item',
        name: 'Draft',
        slug: 'draft',
        parent: 'ent_shop',
        position: 8,
        tags: [],
        published: null,
        fields: { title: { en: 'Draft item' }, price: 1 },
      },
    ],
    lists: [
      {
        key: 'colors',
        name: 'Colours',
        options: [
          { value: 'red', label: { en: 'Red', de: 'Rot' } },
          { value: 'green', label: { en: 'Green', de: 'Grün', 'de-ch': 'Grüen' } },
          { value: 'blue', label: { de: 'Blau' } },
          { value: 'plain', label: {} },
        ],
      },
    ],
    releases: [],
    menus: [],
    redirects: [],
    forms: [],
    webhooks: [],
  };
}

/** The real app on a fresh store with the catalog space (or a variant of its bundle) imported. */
export async function openListApp(
  engine: Engine,
  config: Partial<Config> = {},
  bundle: Record<string, unknown> = listBundle(),
): Promise<TestApp> {
  const env = await openTestEnv(engine);
  await importBundle(env.store, env.blobs, bundle, { baseDir: env.dataDir });
  return serveEnv(env, config);
}
