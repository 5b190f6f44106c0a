import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FolioProcess, PROCESS_TEST_MS, serveFolio } from './helpers/processes.js';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.js';

/**
 * A fresh TypeScript project depends on @folio/client from the workspace (the built
 * client/dist, `npm run build`), generates its types from the demo space with the package's `folio-types` bin,
 * and a small site (test/kit-site/site.ts: typed entries, blocks, rich text, images, the form, sync) compiles
 * under `tsc --strict` with no `any` and no cast, then runs against the space.
 */

const ROOT = join(import.meta.dirname, '..');
const CLIENT = join(ROOT, 'client');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const SITE = join(import.meta.dirname, 'kit-site', 'site.ts');

describe('a fresh site on @folio/client with generated types', { timeout: PROCESS_TEST_MS }, () => {
  let folio: FolioProcess;
  let project = '';
  let args: string[] = [];

  beforeAll(async () => {
    const dataDir = tempDir('folio-kit-data-');
    folio = await serveFolio({ DATA_DIR: dataDir, FOLIO_DEMO: 'true', DATABASE_URL: '', REDIS_URL: '' });
    const tokens: unknown = JSON.parse(readFileSync(join(dataDir, 'demo-tokens.json'), 'utf8'));
    if (typeof tokens !== 'object' || tokens === null || !('spaceId' in tokens) || !('public' in tokens))
      throw new Error('demo-tokens.json has no spaceId or public token');
    args = [folio.base, String(tokens.spaceId), String(tokens.public)];

    // What `npm install <workspace>/client` makes: a link in node_modules (a file: dependency).
    project = tempDir('folio-kit-site-');
    mkdirSync(join(project, 'node_modules', '@folio'), { recursive: true });
    symlinkSync(CLIENT, join(project, 'node_modules', '@folio', 'client'), 'dir');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'kit-site',
        private: true,
        type: 'module',
        dependencies: { '@folio/client': `file:${CLIENT}` },
      }),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          noImplicitAny: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
          skipLibCheck: false,
          outDir: 'out',
        },
        files: ['site.ts', 'node.d.ts'],
      }),
    );
    // The site reads process.argv and nothing else of Node: one line instead of @types/node.
    writeFileSync(join(project, 'node.d.ts'), 'declare const process: { argv: string[] };\n');
    writeFileSync(join(project, 'site.ts'), readFileSync(SITE, 'utf8'));
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    await folio?.stop();
    removeTempDirs();
  });

  it('generates the types, compiles under --strict without any or casts, and runs', () => {
    const bin = join(project, 'node_modules', '@folio', 'client', 'bin', 'folio-types.mjs');
    const [url = '', space = '', token = ''] = args;
    execFileSync(
      process.execPath,
      [bin, '--url', url, '--space', space, '--token', token, '--out', 'folio-types.ts'],
      {
        cwd: project,
        stdio: 'pipe',
      },
    );
    const types = readFileSync(join(project, 'folio-types.ts'), 'utf8');
    expect(types).toContain('export interface PostFields {');
    expect(types).toContain('theme: "light" | "dark" | null;');
    expect(types).toContain('category: "news" | "guides" | "releases" | null;');
    expect(types).toMatch(/export type FolioBlock = CtaBlock \| FormBlockBlock \| GalleryBlock \| HeroBlock/);
    // The menu keys the bin read from the space.
    expect(types).toContain('menus: "footer" | "main";');

    // The code, without its comments (which may say "any").
    const site = readFileSync(SITE, 'utf8').replace(/\/\/.*$/gm, '');
    expect(site).not.toMatch(/\bany\b/);
    expect(site).not.toMatch(/\bas [A-Za-z{(]|(^|[^\w])<[A-Z]\w*>\s*[a-z(]|!\./m);
    // No non-null assertion (`x!`), and no `@ts-` comment (read from the file with its comments).
    expect(site).not.toMatch(/[\w)\]]!(?!=)/);
    expect(readFileSync(SITE, 'utf8')).not.toMatch(/@ts-/);

    let compiled = '';
    try {
      compiled = execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8' });
    } catch (err) {
      const out =
        typeof err === 'object' && err !== null && 'stdout' in err ? String(err.stdout) : String(err);
      throw new Error(`tsc --strict failed:\n${out}`);
    }
    expect(compiled).toBe('');

    const html = execFileSync(process.execPath, [join(project, 'out', 'site.js'), ...args], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(html).toContain('<h1>Hello, world</h1>');
    expect(html).toContain('rating 4.5 news');
    expect(html).toContain('by Mara Keller');
    // Sorted by rating, descending, at least 4: the two best posts.
    expect(html).toMatch(/<li>[^<]* 5<\/li>\n<li>[^<]* 4\.5<\/li>/);
    expect(html).toContain('home is a page');
    expect(html).toContain('menu main 5');
    // Rich text: marks, headings and an entry link resolved through included.links.
    expect(html).toContain('<strong>first</strong>');
    expect(html).toContain('<h2>Why another content service?</h2>');
    expect(html).toMatch(/<a href="\/blog\/content-modeling">Content modelling 101<\/a>/);
    // The signed crop stays in every image url.
    expect(html).toMatch(/<picture><source type="image\/avif" srcset="[^"]*crop=0\.25[^"]*sig=[^"]*fm=avif/);
    expect(html).toMatch(/srcset: \S+sig=\S+&w=320&fm|srcset: \S+sig=\S+w=320 320w/);
    expect(html).toMatch(/cv [1-9]\d* tags [1-9]/);
    expect(html).toContain('<h1>Über uns</h1>');
    expect(html).toContain('hero--light');
    expect(html).toContain('class="folio-form');
    expect(html).toMatch(/sync to \d+: .*entry:false.*entry:true/);
  });
});
