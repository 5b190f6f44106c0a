import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundleFormsCss } from '../client/scripts/build.js';

// `@folio/client/forms.css`, exported by the package, under 4 KB gzipped, overridable with custom
// properties, with focus rings, a dark scheme and errors that are not told by colour alone. The Chromium test
// (test/e2e/forms-round-trip.e2e.test.ts) takes its screenshots with it.

describe('@folio/client/forms.css', () => {
  it('is exported by the client package as dist/forms.css', () => {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../client/package.json', import.meta.url), 'utf8'));
    expect(pkg).toMatchObject({ exports: { './forms.css': './dist/forms.css' } });
  });

  it('is under 4 KB gzipped as shipped (minified)', async () => {
    const css = await bundleFormsCss();
    expect(css.length).toBeGreaterThan(1000);
    expect(gzipSync(css, { level: 9 }).length).toBeLessThan(4096);
  });

  it('has custom properties, focus rings, a dark scheme, and errors marked beyond colour', async () => {
    const css = await bundleFormsCss();
    expect(css).toMatch(/--folio-accent:/);
    expect(css).toMatch(/:focus-visible\{outline:3px solid var\(--folio-focus\)/);
    expect(css).toMatch(/@media ?\(prefers-color-scheme: ?dark\)/);
    // An icon before every error message and a bar beside every invalid control, whatever the colours.
    expect(css).toMatch(/\.folio-error\)?:not\(\[hidden\]\):*before/);
    expect(css).toMatch(/\[aria-invalid=(true|"true")\]\)\{[^}]*box-shadow:inset 4px 0 0/);
  });
});
