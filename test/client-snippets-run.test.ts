import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from './helpers/client.js';
import { DEMO_SPACE, type DemoApp, openDemoApp } from './helpers/demo-app.js';
import { TOKENS } from './helpers/fixture.js';
import { allSnippets, ROOT } from './helpers/snippets.js';
import { removeTempDirs, tempDir } from './helpers/temp-dirs.js';

/**
 * Every JavaScript and TypeScript snippet of README.md, client/README.md and docs/*.md runs, as an ES module of
 * its own in a Node process, against a Folio serving the demo space (client/dist: `npm run build`). A snippet
 * fails when it throws or when any request it makes is answered 4xx or 5xx. The addresses and tokens the docs
 * show are replaced by the live server's; the names a snippet takes as given (a client, a token, the site's own
 * helpers) are defined by a module loaded first (`--import`), matching the declarations of
 * test/client-snippets.test.ts. Snippets marked compile-only are compiled there, not run here.
 */

const run = promisify(execFile);

/** Defines what snippets take as given, and fails the process on any 4xx/5xx answer a snippet received. */
const PRELUDE = `
import { readFileSync } from 'node:fs';
import { createClient, FolioApiError } from '@folio/client';
const refused = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const res = await realFetch(input, init);
  if (res.status >= 400) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = await res.clone().text();
    refused.push(\`\${init?.method ?? 'GET'} \${url} answered \${res.status}: \${body.slice(0, 300)}\`);
  }
  return res;
};
process.on('exit', () => {
  if (refused.length === 0) return;
  console.error(refused.join('\\n'));
  process.exitCode = 1;
});
const env = process.env;
const noop = async () => {};
Object.assign(globalThis, {
  createClient,
  FolioApiError,
  baseUrl: env.FOLIO_URL,
  spaceId: env.FOLIO_SPACE,
  token: env.FOLIO_TOKEN,
  FOLIO: env.FOLIO_URL,
  SPACE: env.FOLIO_SPACE,
  PUBLIC_TOKEN: env.FOLIO_TOKEN,
  folio: createClient({ baseUrl: env.FOLIO_URL, spaceId: env.FOLIO_SPACE, token: env.FOLIO_TOKEN }),
  request: new Request('https://www.example.com/kontakt'),
  lastBuildCv: 0,
  renderPage: noop,
  rerenderLayout: noop,
  rebuildEverything: noop,
  removePage: noop,
  saveLastBuildCv: () => {},
  turnstileToken: '',
  base: env.FOLIO_URL,
  publicToken: env.FOLIO_TOKEN,
  managementToken: env.FOLIO_MANAGEMENT_TOKEN,
  // A file input with a photo chosen (the asset upload of docs/api.md).
  input: { files: [new File([readFileSync(env.FOLIO_PHOTO)], 'bridge.jpg', { type: 'image/jpeg' })] },
  // A submission of the demo's contact form that passes its rules.
  values: { name: 'Ada', email: 'ada@example.com', topic: 'support', message: 'Hello.', consent: 'true' },
  showFieldErrors: () => {},
  showClosed: () => {},
  retryLater: () => {},
  redirect: (to, status) => new Response(null, { status, headers: { location: to } }),
});
`;

/** What the docs show in place of the live server's address and token. */
function substitute(code: string, base: string): string {
  return code
    .replaceAll('https://folio.example.com', base)
    .replaceAll('http://127.0.0.1:3000', base)
    .replaceAll('folio_pub_…', TOKENS.public);
}

function toModule(code: string, lang: 'ts' | 'js'): string {
  if (lang === 'js') return code;
  return ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

describe('README and docs snippets, run against the demo space', () => {
  let demo: DemoApp;
  let base: string;
  let project: string;

  beforeAll(async () => {
    demo = await openDemoApp('sqlite');
    base = await listenOnLoopback(demo.app);
    project = tempDir('folio-snippets-run-');
    mkdirSync(join(project, 'node_modules', '@folio'), { recursive: true });
    symlinkSync(join(ROOT, 'client'), join(project, 'node_modules', '@folio', 'client'), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(project, 'prelude.mjs'), PRELUDE);
  });
  afterAll(async () => {
    await demo.close();
    removeTempDirs();
  });

  const all = allSnippets();
  const runnable = all.filter((s) => s.compileOnly === null);

  it('runs all but a short, justified list of fragments', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(14);
    expect(all.length - runnable.length).toBeLessThanOrEqual(5);
  });

  it.each(runnable.map((s) => [s.name, s] as const))('%s runs', async (_name, snippet) => {
    const file = join(project, `${snippet.name.replace(/[^A-Za-z0-9]+/g, '-')}.mjs`);
    writeFileSync(file, toModule(substitute(snippet.code, base), snippet.lang));
    const env = {
      ...process.env,
      FOLIO_URL: base,
      FOLIO_SPACE: DEMO_SPACE,
      FOLIO_TOKEN: TOKENS.public,
      FOLIO_PUBLIC_TOKEN: TOKENS.public,
      FOLIO_MANAGEMENT_TOKEN: TOKENS.management,
      FOLIO_PHOTO: join(ROOT, 'examples', 'demo', 'assets', 'hero.jpg'),
    };
    let failure = '';
    try {
      await run(process.execPath, ['--import', './prelude.mjs', file], {
        cwd: project,
        env,
        timeout: 30_000,
      });
    } catch (err) {
      failure = typeof err === 'object' && err !== null && 'stderr' in err ? String(err.stderr) : String(err);
    }
    expect(failure).toBe('');
  });
});
