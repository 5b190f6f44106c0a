// DESIGN / STYLE rule 1: the rules module (and the definition code that builds on it) runs in the
// browser too, so its sources must not touch Node APIs.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const formsDir = fileURLToPath(new URL('../../../../src/forms/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const NODE_ONLY = [
  /from\s+['"]node:/,
  /from\s+['"](fs|path|url|crypto|buffer|util|os)['"]/,
  /\bBuffer\b/,
  /\bprocess\./,
  /\brequire\(/,
];

describe('browser-safe sources', () => {
  const files = [...sources(join(formsDir, 'rules')), ...sources(join(formsDir, 'definition'))];

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [f.slice(formsDir.length), f]))('%s uses no Node APIs', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    for (const pattern of NODE_ONLY) expect(text).not.toMatch(pattern);
  });
});
