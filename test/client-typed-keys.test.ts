import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from '../client/src/codegen/generate.js';
import type { ContentTypeDef } from '../src/content/model.js';
import { modelTypes } from '../src/delivery/content-model.js';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.js';

/**
 * Query keys typed by the generated model: the demo space's types (as `folio-types` writes them, menus included)
 * and site code compiled with the TypeScript compiler API under the strict site's options
 * (test/client-kit.test.ts). Code the server would answer 400 or 404 to fails to compile, each case on its own
 * with a diagnostic naming the bad key; the valid uses, and untyped use, compile without a diagnostic.
 */

const ROOT = join(import.meta.dirname, '..');
const CLIENT = join(ROOT, 'client', 'src', 'index.js');

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  noEmit: true,
};

const HEADER = `import { createClient, findIncluded } from ${JSON.stringify(CLIENT)};
import type { FolioTypes } from './folio-types.js';
const folio = createClient<FolioTypes>({ baseUrl: 'http://localhost', spaceId: 'spc_demo', token: 't' });
`;

/** Valid uses: each compiles. */
const VALID = `
export async function valid(): Promise<string[]> {
  const post = await folio.entries.byPath('/blog/hello-world', {
    type: 'post',
    include: ['author', 'related'],
    fields: ['title', 'author'],
  });
  const author = findIncluded(post, post.entry.content.fields.author, 'author');
  const name: string | null | undefined = author?.content.fields.name;
  const page = await folio.entries.byPath('/');
  const pageType: 'page' | 'post' = page.entry.type;
  const posts = folio.entries.list({
    type: 'post',
    sort: ['-fields.rating', 'name'],
    filter: { 'fields.rating': { gte: 3 }, 'fields.featured': true, tags: { contains: 'news' } },
  });
  for await (const item of posts) void item.content.fields.rating;
  void folio.entries.list({ sort: '-publishedAt', filter: { 'fields.category': 'news' } });
  await folio.menus.get('main');
  await folio.menus.all({ keys: ['main', 'footer'] });
  await folio.globals.get('footer', { include: [] });
  await folio.globals.all({ keys: 'settings' });
  await folio.sitemap({ types: ['page', 'post'] });
  await folio.search('alps', { type: 'post', include: 'author', fields: 'title' });
  const title = post.entry.content.fields.title;
  return [name ?? '', pageType, title ?? post.entry.name];
}
`;

/** Without a generated model every key is a string, as before. */
const UNTYPED = `import { createClient } from ${JSON.stringify(CLIENT)};
const folio = createClient({ baseUrl: 'http://localhost', spaceId: 'spc_demo', token: 't' });
export async function untyped(): Promise<unknown> {
  const answer = await folio.entries.byPath('/x', { include: 'anything', fields: ['whatever'] });
  void folio.entries.list({ type: 'any', sort: '-fields.x', filter: { 'fields.y': { gte: 1 } } });
  await folio.menus.get('any');
  await folio.globals.get('any');
  await folio.sitemap({ types: 'any' });
  await folio.search('any', { type: 'any', include: 'any' });
  return [answer.entry.type, answer.entry.content.fields.anything, answer.entry.extra];
}
`;

/** Each fails to compile, with a diagnostic that names what is wrong. */
const INVALID: { name: string; code: string; mentions: string }[] = [
  {
    name: 'include key',
    code: `await folio.entries.byPath('/x', { type: 'post', include: 'autor' });`,
    mentions: '"autor"',
  },
  {
    name: 'fields key',
    code: `await folio.entries.byPath('/x', { type: 'post', fields: ['titel'] });`,
    mentions: '"titel"',
  },
  {
    name: 'filter key',
    code: `void folio.entries.list({ type: 'post', filter: { 'fields.ratin': { gte: 3 } } });`,
    mentions: 'fields.ratin',
  },
  {
    name: 'filter operator of the kind',
    code: `void folio.entries.list({ type: 'post', filter: { 'fields.featured': { gt: true } } });`,
    mentions: "'gt'",
  },
  {
    name: 'sort key',
    code: `void folio.entries.list({ type: 'post', sort: '-fields.ratin' });`,
    mentions: '"-fields.ratin"',
  },
  {
    name: 'sort on a list (many references)',
    code: `void folio.entries.list({ type: 'post', sort: 'fields.related' });`,
    mentions: '"fields.related"',
  },
  {
    name: 'list of a folder type',
    code: `void folio.entries.list({ type: 'folder' });`,
    mentions: '"folder"',
  },
  { name: 'menu key', code: `await folio.menus.get('mian');`, mentions: '"mian"' },
  { name: 'menu keys', code: `await folio.menus.all({ keys: ['main', 'fotter'] });`, mentions: '"fotter"' },
  { name: 'global key', code: `await folio.globals.get('foter');`, mentions: '"foter"' },
  {
    name: 'global keys',
    code: `await folio.globals.all({ keys: ['footer', 'setings'] });`,
    mentions: '"setings"',
  },
  {
    name: 'sitemap type that is not a page',
    code: `await folio.sitemap({ types: 'author' });`,
    mentions: '"author"',
  },
  { name: 'search type', code: `await folio.search('alps', { type: 'footer' });`, mentions: '"footer"' },
  {
    name: 'entry member typo',
    code: `const p = await folio.entries.byPath('/x', { type: 'post' });\n  void p.entry.titel;`,
    mentions: "'titel'",
  },
  {
    name: 'field typo',
    code: `const p = await folio.entries.byPath('/x', { type: 'post' });\n  void p.entry.content.fields.titel;`,
    mentions: "'titel'",
  },
  {
    name: 'byPath of a type that is not a page',
    code: `await folio.entries.byPath('/x', { type: 'author' });`,
    mentions: '"author"',
  },
  {
    name: 'byPath without a type is a page type, not any type',
    code: `const p = await folio.entries.byPath('/x');\n  const t: 'author' = p.entry.type;\n  void t;`,
    mentions: '"page" | "post"',
  },
  {
    name: 'findIncluded narrows to the type asked for',
    code: `const p = await folio.entries.byPath('/x', { type: 'post' });\n  void findIncluded(p, 'ent_1', 'author')?.content.fields.title;`,
    mentions: "'title'",
  },
  {
    // `required` is an authoring hint the server does not enforce when publishing (src/bundle/validate-fields.ts
    // takes null for any field), so no locale's fallback guarantees a value: a required field stays nullable.
    name: 'required field used as a string without a null check',
    code: `const p = await folio.entries.byPath('/x', { type: 'post' });\n  const s: string = p.entry.content.fields.title;\n  void s;`,
    mentions: "'string | null' is not assignable to type 'string'",
  },
];

function diagnostics(program: ts.Program, file: string): string[] {
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not in the program`);
  return [...program.getSemanticDiagnostics(source), ...program.getSyntacticDiagnostics(source)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
}

describe('query keys typed by the generated model', () => {
  let dir = '';
  let program: ts.Program;

  beforeAll(() => {
    dir = tempDir('folio-typed-keys-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    const bundle: { types: ContentTypeDef[] } = JSON.parse(
      readFileSync(join(ROOT, 'examples', 'demo', 'bundle.json'), 'utf8'),
    );
    writeFileSync(
      join(dir, 'folio-types.ts'),
      generateTypes({
        types: modelTypes(bundle.types),
        lists: { categories: ['news', 'guides', 'releases'] },
        menus: ['main', 'footer'],
        clientModule: CLIENT,
      }),
    );
    writeFileSync(join(dir, 'valid.ts'), HEADER + VALID);
    writeFileSync(join(dir, 'untyped.ts'), UNTYPED);
    INVALID.forEach(({ code }, i) =>
      writeFileSync(
        join(dir, `invalid-${i}.ts`),
        `${HEADER}export async function f(): Promise<void> {\n  ${code}\n}\n`,
      ),
    );
    const files = ['folio-types.ts', 'valid.ts', 'untyped.ts', ...INVALID.map((_, i) => `invalid-${i}.ts`)];
    program = ts.createProgram(
      files.map((f) => join(dir, f)),
      OPTIONS,
    );
  });

  afterAll(() => removeTempDirs());

  it('compiles the generated model, the valid uses and untyped use without a diagnostic', () => {
    expect(diagnostics(program, join(dir, 'folio-types.ts'))).toEqual([]);
    expect(diagnostics(program, join(dir, 'valid.ts'))).toEqual([]);
    expect(diagnostics(program, join(dir, 'untyped.ts'))).toEqual([]);
  });

  it.each(INVALID.map((c, i) => ({ ...c, i })))('fails to compile: $name', ({ i, mentions }) => {
    const found = diagnostics(program, join(dir, `invalid-${i}.ts`));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(mentions);
  });
});
