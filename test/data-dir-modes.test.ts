import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../src/cli/demo.js';
import { openRuntime, type Runtime } from '../src/cli/runtime.js';
import { loadConfig } from '../src/config/config.js';
import { openMailer } from '../src/forms/notify/mailer.js';
import { tempDir } from './helpers/temp-dirs.js';

// The data directory holds visitors' answers, uploads, mail and secrets. What Folio creates there is
// 0700 (directories) and 0600 (files) whatever the umask; under the usual umask 022 it used to be 0755 and 0644.

/** Every directory and file under `dir` (itself included), with its permission bits. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    const s = statSync(path);
    out[relative(dir, path) || '.'] = (s.mode & 0o777).toString(8);
    if (s.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}

describe('the data directory under umask 022', () => {
  let umask = 0;
  let rt: Runtime;
  // A folder that does not exist yet: Folio creates it.
  const dataDir = join(tempDir('folio-modes-'), 'data');

  beforeAll(async () => {
    umask = process.umask(0o022);
    // The embedded default, whatever CI exports.
    rt = await openRuntime(
      loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://folio.test' }),
    );
  });
  afterAll(async () => {
    await rt.close();
    process.umask(umask);
  });

  it('creates directories 0700 and files 0600: the database, its WAL and SHM, blobs, .eml files, demo tokens', async () => {
    // The demo space: asset blobs, the tokens file; then a form upload's blob and a notification written as .eml.
    expect(await ensureDemo(rt)).not.toBeNull();
    await rt.blobs.put('uploads/spc_demo/fup_ModesTest000000000001', Buffer.from('%PDF-1.4\n%%EOF\n'));
    await openMailer(rt.config.mail).send({
      from: 'Folio <forms@folio.test>',
      to: 'owner@example.com',
      subject: 'New submission',
      text: 'Name: Ada',
      messageId: 'sub_ModesTest00000000000001.mail.0123456789abcdef@folio.test',
    });
    const found = modes(dataDir);
    const names = Object.keys(found);
    // What must be there (the store is open: SQLite keeps its -wal and -shm files).
    for (const want of [
      '.',
      'folio.sqlite',
      'folio.sqlite-wal',
      'folio.sqlite-shm',
      'demo-tokens.json',
      'outbox-mail',
    ])
      expect(names).toContain(want);
    expect(names.filter((n) => n.endsWith('.eml'))).toHaveLength(1);
    expect(
      names.filter((n) => n.startsWith('blobs/uploads/') && statSync(join(dataDir, n)).isFile()),
    ).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('blobs/assets/')).length).toBeGreaterThan(1);
    const wrong = Object.entries(found).filter(
      ([name, mode]) => mode !== (statSync(join(dataDir, name)).isDirectory() ? '700' : '600'),
    );
    expect(wrong).toEqual([]);
  });
});
