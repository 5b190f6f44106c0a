import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/server/errors.js';

const ROOT = join(import.meta.dirname, '..');
// CI clones the repo with shared/ beside it, as on a developer machine.
const SPEC = join(ROOT, '..', 'shared', 'spec', 'delivery-and-forms-api.md');

/** Rows `| 409 | form_full | … |` of a markdown section. */
function codeRows(markdown: string, heading: string): Map<string, number> {
  const start = markdown.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const section = markdown.slice(start, markdown.indexOf('\n#', start + heading.length));
  const rows = new Map<string, number>();
  for (const m of section.matchAll(/^\|\s*(\d{3})\s*\|\s*`?([a-z_]+)`?\s*\|/gm))
    rows.set(m[2]!, Number(m[1]));
  return rows;
}

describe('the error registry', () => {
  it('holds every code of spec 7.3 with its status', () => {
    const spec = codeRows(readFileSync(SPEC, 'utf8'), '### 7.3 Codes');
    expect(spec.size).toBeGreaterThan(10);
    for (const [code, status] of spec)
      expect([code, ERROR_CODES[code as keyof typeof ERROR_CODES]]).toEqual([code, status]);
  });

  it('is listed in docs/api.md exactly, both ways', () => {
    const docs = codeRows(readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8'), '## Errors');
    expect(Object.fromEntries(docs)).toEqual(ERROR_CODES);
  });
});
