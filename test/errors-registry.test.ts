import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors/errors.js';

const API_MD = join(import.meta.dirname, '..', 'docs', 'api.md');

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

// Spec 7.3 "Codes", quoted (the spec lives outside this repository; docs/api.md restates it).
const SPEC_7_3: Record<string, number> = {
  invalid_body: 400,
  not_found: 404,
  form_not_open: 409,
  form_closed: 409,
  form_full: 409,
  already_submitted: 409,
  too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  submission_too_large: 422,
  turnstile_failed: 422,
  turnstile_required: 422,
  invalid_field: 422,
  rate_limited: 429,
};

describe('the error registry', () => {
  it('is listed in docs/api.md exactly, both ways', () => {
    const docs = codeRows(readFileSync(API_MD, 'utf8'), '## Errors');
    expect(Object.fromEntries(docs)).toEqual(ERROR_CODES);
  });

  it('holds every code of spec 7.3 with its status', () => {
    const registry: Record<string, number> = ERROR_CODES;
    for (const [code, status] of Object.entries(SPEC_7_3))
      expect([code, registry[code]]).toEqual([code, status]);
  });
});
