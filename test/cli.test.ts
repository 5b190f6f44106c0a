import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { openStore } from '../src/store/open-store.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { PROCESS_START_MS, PROCESS_TEST_MS } from './helpers/processes.js';
import { npmStartCommand } from '../bench/lib-child.js';
import { tempDir } from './helpers/temp-dirs.js';

// These tests run the embedded default (SQLite, no Redis) even where CI exports DATABASE_URL and REDIS_URL.
const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '' };

/** What `npm start` runs, `node [flags] bin/folio.js [args]`: the README's first command. */
const NPM_START = npmStartCommand();

const BIN = join(import.meta.dirname, '..', 'bin', 'folio.js');

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...EMBEDDED, ...env, LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) s.kill('SIGKILL');
});

/** Starts `folio serve` on a free port and resolves with the base URL it prints. */
function serve(
  env: Record<string, string>,
  args: readonly string[] = ['serve'],
  nodeFlags: readonly string[] = [],
): Promise<{ base: string; output: () => string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], {
      env: { ...process.env, ...EMBEDDED, ...env, PORT: '0', LOG_LEVEL: 'warn' },
    });
    servers.push(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), PROCESS_START_MS);
    child.stderr.on('data', (d) => (out += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /serving (http:\/\/[\d.:]+)/.exec(out);
      if (
        m?.[1] &&
        /\n\s*$/.test(out) &&
        (!out.includes('Demo space') || out.includes('draft=1') || out.includes('kept in'))
      ) {
        clearTimeout(timer);
        resolve({ base: m[1], output: () => out, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

describe('the folio CLI', { timeout: PROCESS_TEST_MS }, () => {
  it('rejects a bad bundle with a non-zero exit naming the JSON path, and writes nothing', async () => {
    const dataDir = tempDir('folio-cli-');
    const dir = await fixtureDir();
    const bad = fixtureBundle() as { entries: { fields: Record<string, unknown> }[] };
    bad.entries[0]!.fields.title = 42;
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
    const r = await run(['import', join(dir, 'bad.json')], { DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('entries[0].fields.title');
    const missing = await run(['import', join(dir, 'nope.json')], { DATA_DIR: dataDir });
    expect(missing.code).toBe(1);
  });

  it('imports, creates a token, serves the imported space, and exports it', async () => {
    const dataDir = tempDir('folio-cli-');
    const dir = await fixtureDir();
    writeFileSync(join(dir, 'b.json'), JSON.stringify(fixtureBundle()));
    const imported = await run(['import', join(dir, 'b.json')], { DATA_DIR: dataDir });
    expect(imported.stdout).toContain('Imported spc_test');
    expect(imported.code).toBe(0);
    const again = await run(['import', join(dir, 'b.json')], { DATA_DIR: dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--replace');
    expect((await run(['import', join(dir, 'b.json'), '--replace'], { DATA_DIR: dataDir })).code).toBe(0);

    const token = await run(
      ['token', 'create', '--space', 'spc_test', '--kind', 'public', '--origin', 'https://a.example'],
      { DATA_DIR: dataDir },
    );
    expect(token.code).toBe(0);
    const created = token.stdout.trim();
    expect(created).toMatch(/^folio_pub_[A-Za-z0-9]{32}$/);
    expect(
      (await run(['token', 'create', '--space', 'spc_test', '--kind', 'root'], { DATA_DIR: dataDir })).code,
    ).toBe(2);
    // Scopes: a narrow management token; a bad scope or scopes on a public token exit 2, one line.
    const createScoped = (kind: string, scope: string) =>
      run(['token', 'create', '--space', 'spc_test', '--kind', kind, '--scope', scope], {
        DATA_DIR: dataDir,
      });
    const scoped = await createScoped('management', 'forms.read,forms.write');
    expect(scoped.code).toBe(0);
    const inbox = scoped.stdout.trim();
    expect(inbox).toMatch(/^folio_mgt_[A-Za-z0-9]{32}$/);
    for (const [kind, scope, says] of [
      ['management', 'forms.read,root', '"root" is not a scope'],
      ['public', 'forms.read', 'management tokens only'],
    ] as const) {
      const bad = await createScoped(kind, scope);
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr.trim().split('\n')).toEqual([expect.stringContaining(says)]);
    }
    // A site's server (it may name its visitors in Folio-Visitor-Ip): public tokens without origins only.
    const serverSide = (...more: string[]) =>
      run(['token', 'create', '--space', 'spc_test', '--server-side', ...more], { DATA_DIR: dataDir });
    expect((await serverSide('--kind', 'public')).code).toBe(0);
    for (const more of [
      ['--kind', 'preview'],
      ['--kind', 'public', '--origin', 'https://a.example'],
    ]) {
      const bad = await serverSide(...more);
      expect([bad.code, bad.stderr.trim()]).toEqual([
        2,
        '--server-side applies to public tokens without --origin.',
      ]);
    }

    const { base, child } = await serve({ DATA_DIR: dataDir });
    const res = await fetch(`${base}/v1/spc_test/entries/by-path/ueber-uns?locale=de&token=${TOKENS.public}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { entry: { path: string } }).entry.path).toBe('/ueber-uns');
    const viaNew = await fetch(`${base}/v1/spc_test/status`, {
      headers: { authorization: `Bearer ${created}`, origin: 'https://b.example' },
    });
    expect(viaNew.status).toBe(403);
    const asInbox = (path: string) =>
      fetch(`${base}/v1/spaces/spc_test${path}`, { headers: { authorization: `Bearer ${inbox}` } });
    expect((await asInbox('/forms')).status).toBe(200);
    expect((await asInbox('/entries')).status).toBe(403);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));

    const out = tempDir('folio-export-');
    const exported = await run(['export', 'spc_test', out], { DATA_DIR: dataDir });
    expect(exported.code).toBe(0);
    const bundle = JSON.parse(readFileSync(join(out, 'bundle.json'), 'utf8'));
    expect(bundle.space.id).toBe('spc_test');
    expect(bundle.tokens.filter((t: { serverSide?: boolean }) => t.serverSide === true)).toHaveLength(1);
  });

  it('sweeps expired submissions, unused uploads and their files once, for cron (spec 3.2, 3.3)', async () => {
    const dataDir = tempDir('folio-cli-');
    const store = await openStore({ engine: 'sqlite', file: join(dataDir, 'folio.sqlite') });
    const blobs = new LocalDirBlobStore(join(dataDir, 'blobs'));
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 60 * 60_000).toISOString();
    await store.db
      .insertInto('spaces')
      .values({ id: 'spc_cli', name: 'CLI', settings: '{}', cv: 0, min_cv: 0, created_at: past })
      .execute();
    const submission = (id: string, deleteAfter: string) => ({
      id,
      space_id: 'spc_cli',
      form_key: 'contact',
      folder: 'inbox' as const,
      values: '{}',
      page: null,
      locale: 'en',
      user_agent: null,
      consent: '{}',
      unique_key: null,
      created_at: past,
      delete_after: deleteAfter,
    });
    await store.db
      .insertInto('submissions')
      .values([submission('sub_old', past), submission('sub_new', future)])
      .execute();
    const upload = (id: string, submissionId: string | null, expiresAt: string) => ({
      id,
      space_id: 'spc_cli',
      form_key: 'contact',
      field_key: 'cv',
      name: 'cv.txt',
      size: 2,
      type: 'text/plain',
      blob_key: `uploads/spc_cli/${id}`,
      created_at: past,
      expires_at: expiresAt,
      submission_id: submissionId,
    });
    const uploads = [upload('fup_claimed', 'sub_old', past), upload('fup_unused', null, past)];
    await store.db.insertInto('uploads').values(uploads).execute();
    for (const u of uploads) await blobs.put(u.blob_key, Buffer.from('hi'));
    await store.close();
    // Notification email written without SMTP_URL is the submission's too; other files stay.
    const mailDir = join(dataDir, 'outbox-mail');
    const mails = {
      old: '2026-01-01T00-00-00-000Z-sub_old.mail.0123456789abcdef_folio.test.eml',
      kept: '2026-01-01T00-00-00-000Z-sub_new.confirmation_folio.test.eml',
      foreign: 'README.txt',
    };
    mkdirSync(mailDir);
    for (const name of Object.values(mails)) writeFileSync(join(mailDir, name), 'Name: Ada');

    const swept = await run(['sweep'], { DATA_DIR: dataDir });
    expect([swept.code, swept.stdout.trim()]).toEqual([
      0,
      'Deleted 1 expired submissions, 1 unused uploads, 2 files and 1 mail files.',
    ]);
    for (const u of uploads) expect(await blobs.get(u.blob_key)).toBeNull();
    expect(readdirSync(mailDir).sort()).toEqual([mails.kept, mails.foreign].sort());
    const again = await run(['sweep'], { DATA_DIR: dataDir });
    expect([again.code, again.stdout.trim()]).toEqual([
      0,
      'Deleted 0 expired submissions, 0 unused uploads, 0 files and 0 mail files.',
    ]);
    expect((await run(['help'], {})).stdout).toContain('sweep');
  });

  it('`npm start` serves the demo space on an empty data dir and prints tokens and working examples', async () => {
    const dataDir = tempDir('folio-cli-');
    const { output, child } = await serve({ DATA_DIR: dataDir }, NPM_START.args, NPM_START.nodeFlags);
    const text = output();
    const token = /public token:\s+(folio_pub_\w+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    const urls = [...text.matchAll(/curl -s (?:-H 'Authorization: Bearer (\S+)' )?'([^']+)'/g)];
    expect(urls).toHaveLength(4);
    for (const [, bearer, url] of urls) {
      const res = await fetch(url ?? '', bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {});
      expect([url, res.status]).toEqual([url, 200]);
    }
    // The demo space has AI on: the server's own job runner embeds it, and the printed search then finds by meaning.
    const search = urls.at(-1)?.[2] ?? '';
    const status = search.replace(/\/search\?.*token=/, '/status?token=');
    for (let i = 0; i < 150; i++) {
      const s = (await (await fetch(status)).json()) as { search?: { complete: boolean } };
      if (s.search?.complete) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const found = (await (await fetch(search)).json()) as { items: { entry: { id: string } }[] };
    expect(found.items[0]?.entry.id).toBe('ent_alpine_meetup');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    // A second start does not import again, and prints no token: they are printed once, when made.
    const second = await serve({ DATA_DIR: dataDir }, NPM_START.args, NPM_START.nodeFlags);
    expect(second.output()).not.toContain(token);
    const spaceId = /Demo space (\S+)/.exec(text)?.[1];
    expect(second.output()).toContain(
      `Demo space ${spaceId}: its tokens were printed when they were made and are kept in ${join(dataDir, 'demo-tokens.json')}.`,
    );
    second.child.kill('SIGTERM');
  });

  it('`folio serve` without --demo leaves an empty store empty: no demo space, no token printed', async () => {
    const dataDir = tempDir('folio-cli-');
    const { output, child } = await serve({ DATA_DIR: dataDir });
    expect(output()).toMatch(/^Folio is serving http:\/\/127\.0\.0\.1:\d+ \(store: sqlite\)\.$/m);
    expect(output()).not.toMatch(/Demo space|token:/);
    expect(readdirSync(dataDir)).not.toContain('demo-tokens.json');
    child.kill('SIGTERM');
  });
});
