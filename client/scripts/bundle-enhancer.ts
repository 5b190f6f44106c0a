// Bundles the browser enhancer (client/src/forms/auto.ts, with the form rules of src/forms/rules it imports) into
// one minified ES module: client/dist/enhance.js, the package's `./enhance` export. The build (scripts/build.ts)
// and the tests call bundleEnhancer(); run this file to write the bundle and print its size:
//   npx tsx client/scripts/bundle-enhancer.ts

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ENHANCER_ENTRY = join(clientDir, 'src', 'forms', 'auto.ts');
export const ENHANCER_OUT = join(clientDir, 'dist', 'enhance.js');

export interface EnhancerBundle {
  code: string;
  bytes: number;
  gzipBytes: number;
}

export async function bundleEnhancer(): Promise<EnhancerBundle> {
  const result = await build({
    entryPoints: [ENHANCER_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // Object.hasOwn and Array.prototype.at (the rules and the enhancer use them): browsers since 2022.
    target: ['es2022'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const bytes = Buffer.byteLength(code);
  return { code, bytes, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function writeEnhancer(out = ENHANCER_OUT): Promise<EnhancerBundle> {
  const bundle = await bundleEnhancer();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bundle.code);
  return bundle;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { bytes, gzipBytes } = await writeEnhancer();
  console.log(
    `${ENHANCER_OUT}: ${(bytes / 1024).toFixed(1)} KB, ${(gzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
}
