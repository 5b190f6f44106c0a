import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKUP_FORMAT, parseManifest } from '../src/cli/backup-manifest.js';

const valid = {
  format: BACKUP_FORMAT,
  folio: '0.1.0',
  schema: '0028-x',
  createdAt: '2026-12-07T09:00:00.000Z',
  engine: 'sqlite',
  spaces: [{ id: 'spc_a', cv: 3 }],
  secret: { source: 'store', fingerprint: '0123456789abcdef' },
  blobs: { kind: 'local' },
  files: [{ path: 'blobs/spc_a/ast_1/pic.png', size: 12, sha256: 'a'.repeat(64) }],
};

describe('a backup manifest read back (parse, never cast)', () => {
  it('accepts what folio backup writes, rebuilt member by member', () => {
    const parsed = parseManifest(JSON.parse(JSON.stringify({ ...valid, extra: 'dropped' })));
    expect(parsed).toEqual({ ok: true, manifest: valid });
  });

  it.each([
    ['an absolute path', '/etc/passwd'],
    ['a path up and out', 'blobs/../../etc/passwd'],
    ['a dot segment', 'blobs/./x'],
    ['a backslash', 'blobs\\x'],
    ['an empty path', ''],
  ])('refuses a file named by %s, so a restore writes nowhere else', (_what, path) => {
    const parsed = parseManifest({ ...valid, files: [{ path, size: 1, sha256: 'a'.repeat(64) }] });
    expect(parsed.ok).toBe(false);
  });

  it('answers junk with a problem, never by throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ format: fc.constant(BACKUP_FORMAT), files: fc.jsonValue(), spaces: fc.jsonValue() }),
          fc.jsonValue().map((files) => ({ ...valid, files })),
        ),
        (input) => {
          const parsed = parseManifest(input);
          if (!parsed.ok) expect(typeof parsed.problem).toBe('string');
        },
      ),
      { numRuns: 500 },
    );
  });
});
