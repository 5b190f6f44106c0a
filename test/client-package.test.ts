import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The client package's entry points resolve for `require.resolve` as well as for `import`: a site without a
 * bundler (or a tool that resolves the CommonJS way, like Astro's or a copy script) finds `enhance.js` and
 * `forms.css` through the package. Needs the built client (`npm run build`).
 */

const require = createRequire(import.meta.url);
const SUBPATHS = ['@folio/client', '@folio/client/forms', '@folio/client/enhance', '@folio/client/forms.css'];

describe('@folio/client exports', () => {
  it.each(SUBPATHS)('%s resolves for require and import to the same built file', (subpath) => {
    const required = require.resolve(subpath);
    expect(existsSync(required)).toBe(true);
    expect(realpathSync(required)).toMatch(/\/client\/dist\/[a-z.]+\.(js|css)$/);
    if (subpath.endsWith('.css')) return;
    expect(realpathSync(fileURLToPath(import.meta.resolve(subpath)))).toBe(realpathSync(required));
  });

  it('the enhancer and the stylesheet are where the README says', () => {
    expect(realpathSync(require.resolve('@folio/client/enhance'))).toMatch(/client\/dist\/enhance\.js$/);
    expect(realpathSync(require.resolve('@folio/client/forms.css'))).toMatch(/client\/dist\/forms\.css$/);
  });
});
