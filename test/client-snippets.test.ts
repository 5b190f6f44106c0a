import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTypes } from '../client/src/codegen/generate.js';
import type { ContentTypeDef } from '../src/content/model.js';
import { modelTypes } from '../src/delivery/content-model.js';
import { allSnippets, ROOT } from './helpers/snippets.js';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.js';

/**
 * Every TypeScript snippet (```ts) of README.md, client/README.md and docs/*.md compiles under
 * `tsc --strict` against the built package (client/dist, `npm run build`), each as a module of its own, and
 * every JavaScript one (```js) parses as an ES module. The names snippets take as given (a client, a token, the
 * page's helpers) are declared once in globals.d.ts. test/client-snippets-run.test.ts runs them.
 */

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const GLOBALS = `
type Client = import('@folio/client').FolioClient;
type FieldError = import('@folio/client').FieldError;
declare const folio: Client;
declare const createClient: typeof import('@folio/client').createClient;
declare const FolioApiError: typeof import('@folio/client').FolioApiError;
declare const baseUrl: string, spaceId: string, token: string;
declare const FOLIO: string, SPACE: string, PUBLIC_TOKEN: string;
declare const process: { env: Record<string, string | undefined> };
declare const request: Request;
declare const lastBuildCv: number;
declare function renderPage(path: string, locale: string): Promise<void>;
declare function rerenderLayout(locale: string): Promise<void>;
declare function rebuildEverything(): Promise<void>;
declare function removePage(path: string, locale: string): Promise<void>;
declare function saveLastBuildCv(cv: number): void;
declare const cvFile: Blob;
declare const turnstileToken: string;
declare const trapInput: HTMLInputElement;
declare const values: Record<string, string>;
declare function showFieldErrors(fields: Record<string, FieldError>): void;
declare function showClosed(message: string): void;
declare function retryLater(seconds: number | undefined): void;
declare function redirect(to: string, status: number): Response;
// A framework's module a snippet imports (docs/api.md, a Next.js server action), as far as the snippet uses it.
declare module 'next/headers' {
  export function headers(): Promise<Headers>;
}
`;

describe('README and docs snippets', () => {
  afterAll(() => removeTempDirs());

  it('compile under tsc --strict against the built @folio/client', () => {
    const project = tempDir('folio-snippets-');
    mkdirSync(join(project, 'node_modules', '@folio'), { recursive: true });
    symlinkSync(join(ROOT, 'client'), join(project, 'node_modules', '@folio', 'client'), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(project, 'globals.d.ts'), GLOBALS);
    // The types `folio-types` writes for the demo space (test/client-kit.test.ts runs the bin itself).
    const bundle: { types: ContentTypeDef[] } = JSON.parse(
      readFileSync(join(ROOT, 'examples', 'demo', 'bundle.json'), 'utf8'),
    );
    const categories = ['news', 'guides', 'releases'];
    writeFileSync(
      join(project, 'folio-types.ts'),
      generateTypes({ types: modelTypes(bundle.types), lists: { categories }, menus: ['main', 'footer'] }),
    );
    const all = allSnippets().filter((s) => s.lang === 'ts');
    const names = new Map<string, string>();
    all.forEach(({ name, code }, i) => {
      const file = `snippet-${i}.ts`;
      names.set(file, name);
      writeFileSync(join(project, file), `${code}\nexport {};\n`);
    });
    expect(all.length).toBeGreaterThanOrEqual(12);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
          noEmit: true,
          noUnusedLocals: false,
        },
        include: ['*.ts'],
      }),
    );
    let errors = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8' });
    } catch (err) {
      errors = typeof err === 'object' && err !== null && 'stdout' in err ? String(err.stdout) : String(err);
    }
    // Name the snippet (file and line of its fence) instead of the temporary file.
    const named = errors.replace(/snippet-\d+\.ts/g, (f) => names.get(f) ?? f);
    expect(named).toBe('');
  });

  it('JavaScript snippets parse as ES modules', () => {
    const project = tempDir('folio-snippets-js-');
    for (const [i, snippet] of allSnippets()
      .filter((s) => s.lang === 'js')
      .entries()) {
      const file = join(project, `snippet-${i}.mjs`);
      writeFileSync(file, snippet.code);
      let errors = '';
      try {
        execFileSync(process.execPath, ['--check', file], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        errors =
          typeof err === 'object' && err !== null && 'stderr' in err ? String(err.stderr) : String(err);
      }
      expect({ snippet: snippet.name, errors }).toEqual({ snippet: snippet.name, errors: '' });
    }
  });
});

/** Sizes of the built package (client/dist, `npm run build`) as the docs quote them, in KB of 1024 bytes. */
function builtKb(file: string): { minified: number; gzipped: number } {
  const path = join(ROOT, 'client', 'dist', file);
  return {
    minified: statSync(path).size / 1024,
    gzipped: gzipSync(readFileSync(path), { level: 9 }).length / 1024,
  };
}

/** The numbers a pattern's groups capture in a doc; the doc must still say it. */
function quoted(file: string, pattern: RegExp): number[] {
  const match = pattern.exec(readFileSync(join(ROOT, file), 'utf8'));
  if (match === null) throw new Error(`${file} no longer quotes ${String(pattern)}`);
  return match.slice(1).map(Number);
}

describe('sizes quoted in the docs', () => {
  it('are the built files', () => {
    const enhance = builtKb('enhance.js');
    const css = builtKb('forms.css');
    const [readmeGzip, readmeMin] = quoted(
      'README.md',
      /`client\/dist\/enhance\.js`, \*\*([\d.]+) KB\s+gzipped\*\*, ([\d.]+) KB minified/,
    );
    const [rendererMin, rendererGzip] = quoted(
      'docs/forms-renderer.md',
      /\*\*([\d.]+) KB, ([\d.]+) KB gzipped\*\*/,
    );
    const [readmeCss] = quoted(
      'README.md',
      /`@folio\/client\/forms\.css` is a default stylesheet \(([\d.]+) KB gzipped\)/,
    );
    const near = (doc: number | undefined, built: number) => Math.abs((doc ?? NaN) - built) <= 0.1;
    expect({
      readmeGzip: near(readmeGzip, enhance.gzipped),
      readmeMin: near(readmeMin, enhance.minified),
      rendererGzip: near(rendererGzip, enhance.gzipped),
      rendererMin: near(rendererMin, enhance.minified),
      readmeCss: near(readmeCss, css.gzipped),
    }).toEqual({ readmeGzip: true, readmeMin: true, rendererGzip: true, rendererMin: true, readmeCss: true });
  });
});
