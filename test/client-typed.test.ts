import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes, typeName } from '../client/src/codegen/generate.js';
import { createClient, type FolioClient, type ModelField, responseInfo } from '../client/src/index.js';
import { failureOf, listenOnLoopback } from './helpers/client.js';
import { ENGINES } from './helpers/engines.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import { openTestApp, serveEnv, type TestApp } from './helpers/app.js';
import { openTestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';

// The content model and typed reads against the real server: the content model read by the client, a typed read checked
// against the type asked for, the headers of an answer (cv, CDN tags), forms.get() parsed as renderForm takes it;
// and the generator's naming rules.

type Model = {
  page: { title: string | null };
  author: { name: string | null };
};

describe.each(ENGINES)('the typed client on %s', (engine) => {
  let t: TestApp;
  let folio: FolioClient<Model>;
  beforeAll(async () => {
    t = await openTestApp(engine);
    const baseUrl = await listenOnLoopback(t.app);
    folio = createClient<Model>({ baseUrl, spaceId: 'spc_test', token: TOKENS.public });
  });
  afterAll(async () => t.close());

  it('reads the content model', async () => {
    const model = await folio.types();
    expect(model.cv).toBe(1);
    expect(model.types.map((x) => x.key)).toContain('hero');
  });

  it('checks the type a read asks for, and fails with unexpected_type on another', async () => {
    const page = await folio.entries.byPath<'page'>('/about', { type: 'page' });
    const title: string | null = page.entry.content.fields.title;
    expect(title).toBe('About');
    const err = await failureOf(folio.entries.byPath<'author'>('/about', { type: 'author' }));
    expect(err).toMatchObject({ code: 'unexpected_type', status: 200 });
    expect(err.message).toBe('The entry is a "page", not "author".');
    expect((await folio.entries.get('ent_alice', { type: ['author', 'page'] })).entry.type).toBe('author');
  });

  it('gives an answer its cv and CDN tags', async () => {
    const answer = await folio.entries.byPath('/');
    const info = responseInfo(answer);
    expect(info).toMatchObject({ status: 200, cv: 1 });
    expect(info?.tags).toEqual(expect.arrayContaining(['spc_test', 'spc_test:entry:ent_home']));
    expect(info?.etag).toMatch(/^"/);
    // A revalidated answer (304 from the client's ETag cache) has its headers too.
    expect(responseInfo(await folio.entries.byPath('/'))).toMatchObject({ status: 304, cv: 1 });
    expect(responseInfo({})).toBeUndefined();
  });

  it('gives forms.get() as the renderer takes it', async () => {
    const { form } = await folio.forms.get('contact');
    expect(form).toMatchObject({ key: 'contact', status: 'open', fields: [] });
  });
});

// Why the generated types keep required fields nullable: `required` is an authoring hint the server does not
// enforce, so an entry is published (and delivered in every locale, after fallback) without a value.
describe.each(ENGINES)('a required field on %s', (engine) => {
  it('is delivered null when the entry was published without it', async () => {
    const bundle = fixtureBundle('spc_other');
    const types = bundle.types;
    const entries = bundle.entries;
    if (!Array.isArray(types) || !Array.isArray(entries))
      throw new Error('the fixture has no types or entries');
    for (const t of types)
      if (t.key === 'page')
        for (const f of t.fields) if (f.key === 'title') Object.assign(f, { required: true });
    for (const e of entries) if (e.id === 'ent_about') e.fields = {};
    const env = await openTestEnv(engine);
    await importBundle(env.store, env.blobs, bundle, { baseDir: await fixtureDir() });
    const t = await serveEnv(env);
    try {
      const folio = createClient<Model>({
        baseUrl: await listenOnLoopback(t.app),
        spaceId: 'spc_other',
        token: TOKENS.otherSpace,
      });
      const model = await folio.types();
      const title = model.types.find((x) => x.key === 'page')?.fields.find((f) => f.key === 'title');
      expect(title?.required).toBe(true);
      for (const locale of ['en', 'de', 'de-ch'])
        expect(
          (await folio.entries.get('ent_about', { type: 'page', locale })).entry.content.fields.title,
        ).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('the generator', () => {
  it('names types in PascalCase without taking the names it imports', () => {
    expect(typeName('textBlock')).toBe('TextBlock');
    expect(typeName('hero-banner')).toBe('HeroBanner');
    expect(typeName('link')).toBe('LinkType');
    expect(typeName('3d')).toBe('T3d');
  });

  it('writes option unions, block unions and a type map', () => {
    const field = (key: string, type: ModelField['type'], more: Partial<ModelField> = {}): ModelField => ({
      key,
      type,
      localized: false,
      required: false,
      ...more,
    });
    const source = generateTypes({
      types: [
        {
          key: 'page',
          kind: 'page',
          name: 'Page',
          pages: true,
          fields: [
            field('body', 'blocks', { blocks: ['quote', 'gone'] }),
            field('tone', 'option', {
              options: [
                { value: 'calm', label: {} },
                { value: "it's", label: {} },
              ],
            }),
            field('color', 'option', { list: 'colors' }),
            field('size', 'option', { list: 'missing' }),
            field('related', 'reference', { to: ['page'], many: true }),
            field('odd key', 'text'),
          ],
        },
        { key: 'quote', kind: 'block', name: 'Quote', pages: false, fields: [field('text', 'richtext')] },
      ],
      lists: { colors: ['red', 'blue'] },
    });
    expect(source).toContain('body: QuoteBlock[];');
    expect(source).toContain(`tone: "calm" | "it's" | null;`);
    expect(source).toContain('color: "red" | "blue" | null;');
    expect(source).toContain('size: string | null;');
    expect(source).toContain('related: string[];');
    expect(source).toContain('"odd key": string | null;');
    expect(source).toContain('export type FolioBlock = QuoteBlock;');
    expect(source).toContain(
      'export type FolioTypes = {\n  page: PageFields;\n  "~schema": {\n    pages: "page";\n',
    );
    expect(source).toContain('    menus: string;\n');
    expect(source).toContain('"page": "related";');
    expect(source).toContain('export type PageTypeKey = "page";');
  });
});
