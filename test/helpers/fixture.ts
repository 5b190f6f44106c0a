import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDir } from './temp-dirs.js';

export const TOKENS = {
  public: 'folio_pub_TestPublicToken000000000001',
  publicOrigins: 'folio_pub_TestOriginToken000000000002',
  preview: 'folio_prv_TestPreviewToken00000000003',
  management: 'folio_mgt_TestManagementToken000004',
  otherSpace: 'folio_pub_TestOtherSpaceToken000005',
};
export const SITE_ORIGIN = 'https://site.example';

/** A small space built for precise assertions; the demo bundle covers breadth. */
export function fixtureBundle(spaceId = 'spc_test'): Record<string, unknown> {
  const t = (en: string, de?: string, dech?: string) => ({
    en,
    ...(de ? { de } : {}),
    ...(dech ? { 'de-ch': dech } : {}),
  });
  const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
  return {
    format: 'folio-bundle@1',
    space: {
      id: spaceId,
      name: 'Test',
      timeZone: 'Europe/Berlin',
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
        { code: 'de-ch', fallbacks: ['de'] },
      ],
    },
    tokens:
      spaceId === 'spc_test'
        ? [
            { kind: 'public', value: TOKENS.public },
            { kind: 'public', value: TOKENS.publicOrigins, origins: [SITE_ORIGIN] },
            { kind: 'preview', value: TOKENS.preview },
            { kind: 'management', value: TOKENS.management },
          ]
        : [{ kind: 'public', value: TOKENS.otherSpace }],
    types: [
      {
        key: 'page',
        kind: 'page',
        fields: [
          { key: 'title', type: 'text', localized: true },
          { key: 'body', type: 'richtext', localized: true },
          { key: 'blocks', type: 'blocks', blocks: ['hero'] },
          { key: 'author', type: 'reference', to: ['author'] },
          { key: 'related', type: 'reference', to: ['page'], many: true },
          { key: 'labels', type: 'dictionary' },
          { key: 'cta', type: 'link' },
          { key: 'seo', type: 'seo' },
          { key: 'contact', type: 'form' },
        ],
      },
      {
        key: 'author',
        kind: 'collection',
        pages: false,
        fields: [
          { key: 'name', type: 'text' },
          { key: 'friend', type: 'reference', to: ['author'] },
          { key: 'avatar', type: 'asset' },
        ],
      },
      { key: 'footer', kind: 'global', fields: [{ key: 'copyright', type: 'text', localized: true }] },
      { key: 'banner', kind: 'global', fields: [{ key: 'text', type: 'text' }] },
      { key: 'folder', kind: 'folder', fields: [] },
      {
        key: 'hero',
        kind: 'block',
        fields: [
          { key: 'heading', type: 'text', localized: true },
          { key: 'image', type: 'asset' },
        ],
      },
    ],
    assets: [
      {
        id: 'ast_pic',
        file: 'pic.png',
        alt: { en: 'A picture', de: 'Ein Bild' },
        focal: { x: 0.25, y: 0.5 },
      },
    ],
    entries: [
      {
        id: 'ent_home',
        type: 'page',
        name: 'Home',
        slug: '',
        parent: null,
        position: 0,
        tags: ['start'],
        published,
        fields: {
          title: t('Welcome', 'Willkommen', 'Grüezi'),
          body: {
            en: {
              type: 'doc',
              content: [
                {
                  type: 'paragraph',
                  content: [
                    { type: 'text', text: 'Read ' },
                    {
                      type: 'text',
                      text: 'about us',
                      marks: [{ type: 'link', attrs: { kind: 'entry', entry: 'ent_about' } }],
                    },
                  ],
                },
              ],
            },
          },
          blocks: [
            {
              id: 'blk_hero1',
              type: 'hero',
              fields: {
                heading: t('Hello', 'Hallo'),
                image: { asset: 'ast_pic', crop: { x: 0.5, y: 0, width: 0.5, height: 1 } },
              },
            },
          ],
          author: 'ent_alice',
          related: ['ent_about', 'ent_draftonly'],
          labels: { readMore: { en: 'Read more', de: 'Weiterlesen' }, back: { en: 'Back' } },
          cta: { kind: 'entry', entry: 'ent_post' },
          seo: { title: 'Home', description: 'The home page', image: 'ast_pic', noindex: false },
          contact: 'contact',
        },
      },
      {
        id: 'ent_about',
        type: 'page',
        name: 'About',
        slug: 'about',
        slugs: { de: 'ueber-uns' },
        parent: null,
        position: 1,
        tags: [],
        published,
        fields: { title: t('About', 'Über uns') },
        draft: { fields: { title: t('About (draft)', 'Über uns (Entwurf)') } },
      },
      {
        id: 'ent_blog',
        type: 'folder',
        name: 'Blog',
        slug: 'blog',
        parent: null,
        position: 2,
        tags: [],
        published,
        fields: {},
      },
      {
        id: 'ent_blogstart',
        type: 'page',
        name: 'Blog start',
        slug: '',
        parent: 'ent_blog',
        position: 0,
        tags: [],
        published,
        fields: { title: t('Blog') },
      },
      {
        id: 'ent_post',
        type: 'page',
        name: 'Hello',
        slug: 'hello',
        slugs: { de: 'hallo' },
        parent: 'ent_blog',
        position: 1,
        tags: ['news'],
        published,
        fields: { title: t('Hello world', 'Hallo Welt'), author: 'ent_bob' },
      },
      {
        id: 'ent_draftonly',
        type: 'page',
        name: 'Draft only',
        slug: 'draft-only',
        parent: null,
        position: 3,
        tags: [],
        published: null,
        fields: { title: t('Not yet') },
      },
      {
        id: 'ent_alice',
        type: 'author',
        name: 'Alice',
        slug: 'alice',
        parent: null,
        position: 0,
        tags: [],
        published,
        fields: { name: 'Alice', friend: 'ent_bob', avatar: 'ast_pic' },
      },
      {
        id: 'ent_bob',
        type: 'author',
        name: 'Bob',
        slug: 'bob',
        parent: null,
        position: 1,
        tags: [],
        published,
        fields: { name: 'Bob', friend: 'ent_alice' },
      },
      {
        id: 'ent_footer',
        type: 'footer',
        name: 'Footer',
        slug: 'footer',
        parent: null,
        position: 0,
        tags: [],
        published,
        fields: { copyright: t('© Test', '© Test DE') },
      },
      {
        id: 'ent_banner',
        type: 'banner',
        name: 'Banner',
        slug: 'banner',
        parent: null,
        position: 0,
        tags: [],
        published: null,
        fields: { text: 'draft banner' },
      },
    ],
    releases: [
      {
        id: 'rel_next',
        name: 'Next',
        entries: [{ id: 'ent_home', fields: { title: t('Welcome (release)') } }],
      },
    ],
    lists: [{ key: 'colors', options: [{ value: 'red', label: { en: 'Red', de: 'Rot' } }] }],
    menus: [{ key: 'main', name: 'Main', items: [] }],
    redirects: [{ from: '/old', to: { kind: 'entry', entry: 'ent_about' }, status: 301, locale: null }],
    forms: [{ key: 'contact', name: 'Contact', fields: [], settings: {} }],
    webhooks: [],
  };
}

/**
 * Writes the fixture's asset files into a fresh folder and returns it (the import's baseDir); the folder goes
 * after the test file.
 */
export async function fixtureDir(): Promise<string> {
  const dir = tempDir('folio-bundle-');
  const png = await sharp({
    create: { width: 400, height: 200, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer();
  writeFileSync(join(dir, 'pic.png'), png);
  return dir;
}
