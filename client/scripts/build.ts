// Builds the @folio/client package into client/dist:
//   dist/index.js      the delivery client (src/index.ts), one ES module without dependencies
//   dist/forms.js      the form renderer (src/forms/index.ts), when it exists
//   dist/enhance.js    the browser enhancer, when it exists
//   dist/codegen.js    the generator of `folio-types` (src/codegen/generate.ts; client/bin/folio-types.mjs runs it)
//   dist/forms.css     the default stylesheet of rendered forms (src/forms/forms.css), minified
//   dist/types/…       declarations (tsc -p client/tsconfig.json), named by package.json "exports"
// Run: npm run client:build (or `npm run build` in client/).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(clientDir, 'dist');

/**
 * One ES module per entry, runnable in Node 20, browsers and edge runtimes: `platform: 'neutral'` resolves no
 * Node built-ins, so a `node:` import anywhere in the client fails the build instead of shipping.
 */
const LIBRARY: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: ['es2022'],
  legalComments: 'none',
  logLevel: 'silent',
};

export const CLIENT_ENTRY = join(clientDir, 'src', 'index.ts');
const CODEGEN_ENTRY = join(clientDir, 'src', 'codegen', 'generate.ts');

/** The client as one module's source (tests import it). */
export async function bundleClient(entry = CLIENT_ENTRY): Promise<string> {
  const result = await build({ ...LIBRARY, entryPoints: [entry], write: false });
  const code = result.outputFiles?.[0]?.text;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return code;
}

// ---- Form entry points (the form renderer and the browser enhancer, built by their own helper). ----
// Each is built only when its source exists. The enhancer has its own bundler (client/scripts/bundle-enhancer.ts:
// minified, browser platform, auto-starting); without it, src/forms/enhance.ts is bundled like the others.
const FORMS_ENTRY = join(clientDir, 'src', 'forms', 'index.ts');
const ENHANCE_ENTRY = join(clientDir, 'src', 'forms', 'enhance.ts');
const ENHANCE_BUNDLER = join(clientDir, 'scripts', 'bundle-enhancer.ts');
export const FORMS_CSS = join(clientDir, 'src', 'forms', 'forms.css');

/** `@folio/client/forms.css` minified (esbuild), as the package ships it: `dist/forms.css`. */
export async function bundleFormsCss(): Promise<string> {
  const result = await build({
    entryPoints: [FORMS_CSS],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const css = result.outputFiles?.[0]?.text;
  if (css === undefined) throw new Error(`esbuild wrote nothing for ${FORMS_CSS}`);
  return css;
}

async function buildFormEntries(): Promise<string[]> {
  const built: string[] = [];
  if (existsSync(FORMS_ENTRY)) {
    writeFileSync(join(distDir, 'forms.js'), await bundleClient(FORMS_ENTRY));
    built.push('forms.js');
  }
  if (existsSync(FORMS_CSS)) {
    writeFileSync(join(distDir, 'forms.css'), await bundleFormsCss());
    built.push('forms.css');
  }
  if (existsSync(ENHANCE_BUNDLER)) {
    const bundler: unknown = await import(pathToFileURL(ENHANCE_BUNDLER).href);
    const write =
      typeof bundler === 'object' && bundler !== null && 'writeEnhancer' in bundler
        ? bundler.writeEnhancer
        : undefined;
    if (typeof write !== 'function') throw new Error(`${ENHANCE_BUNDLER} exports no writeEnhancer()`);
    await write();
    built.push('enhance.js');
  } else if (existsSync(ENHANCE_ENTRY)) {
    writeFileSync(join(distDir, 'enhance.js'), await bundleClient(ENHANCE_ENTRY));
    built.push('enhance.js');
  }
  return built;
}
// ---- end of the form entry points ----

/** Declarations of everything under client/src, into dist/types (client/tsconfig.json). */
function emitDeclarations(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(clientDir, 'tsconfig.json')], { stdio: 'inherit' });
}

export async function buildClient(): Promise<string[]> {
  rmSync(join(distDir, 'types'), { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  writeFileSync(join(distDir, 'index.js'), await bundleClient());
  writeFileSync(join(distDir, 'codegen.js'), await bundleClient(CODEGEN_ENTRY));
  const built = ['index.js', 'codegen.js', ...(await buildFormEntries())];
  emitDeclarations();
  return [...built, 'types/'];
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildClient();
  console.log(`built ${built.map((name) => join('client/dist', name)).join(', ')}`);
}
