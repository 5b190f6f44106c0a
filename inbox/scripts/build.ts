// Builds the inbox page into dist/inbox-ui/ (served by `folio serve` at /inbox/, src/inbox/ui-files.ts):
//   index.html            the page: one script and one stylesheet, no inline script or style (strict CSP)
//   assets/app-<hash>.js  Preact and the views, one minified ES module
//   assets/app-<hash>.css
// Run by `npm run build` (npm run inbox:build); nothing is fetched at run time.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const inboxDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(inboxDir, '..', 'dist', 'inbox-ui');

export async function buildInbox(outDir = OUT_DIR): Promise<{ js: string; css: string }> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: { app: join(inboxDir, 'src', 'main.tsx'), style: join(inboxDir, 'src', 'app.css') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    entryNames: '[name]-[hash]',
    outdir: join(outDir, 'assets'),
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((n) => n.startsWith('app-') && n.endsWith('.js'));
  const css = outputs.find((n) => n.startsWith('style-') && n.endsWith('.css'));
  if (!js || !css) throw new Error(`esbuild wrote ${outputs.join(', ')}`);
  // The style entry's (empty) script is not served.
  for (const name of outputs)
    if (name.startsWith('style-') && name.endsWith('.js')) rmSync(join(outDir, 'assets', name));
  writeFileSync(
    join(outDir, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Folio inbox</title>
<link rel="stylesheet" href="/inbox/assets/${css}">
<script type="module" src="/inbox/assets/${js}"></script>
</head>
<body>
<div id="app"><noscript>The Folio inbox needs JavaScript.</noscript></div>
</body>
</html>
`,
  );
  return { js, css };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { js, css } = await buildInbox();
  console.log(`inbox: dist/inbox-ui/assets/${js}, ${css}`);
}
