import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDirBlobStore } from '../src/blobs/blob-store.js';
import { importBundle } from '../src/bundle/import-bundle.js';
import type { Config } from '../src/config/config.js';
import type { FormDefinition } from '../src/forms/rules/index.js';
import { TURNSTILE_TEST_SECRETS } from '../src/forms/submission/turnstile.js';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/open-store.js';
import { loadMasterKey } from '../src/store/secrets-repo.js';
import { insertWebhooks } from '../src/webhooks/webhooks-repo.js';
import { createJobRunner } from '../src/wiring/jobs.js';
import { DATABASE_URL, openTestEnv, type TestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir, TOKENS } from './helpers/fixture.js';
import { CONTACT_FIELDS, VALID_CONTACT } from './helpers/form-defs.js';
import { type FormsApp, formClient, openFormsApp, putForms } from './helpers/forms.js';
import { drainJobs, submittedId } from './helpers/jobs.js';
import { PROCESS_TEST_MS, runFolio } from './helpers/processes.js';
import { SmtpTestServer } from './helpers/smtp.js';

const pub = { authorization: `Bearer ${TOKENS.public}` };
const contact: FormDefinition = {
  key: 'contact',
  name: 'Contact us',
  fields: CONTACT_FIELDS,
  settings: {
    turnstileSiteKey: '1x00000000000000000000AA',
    turnstileSecret: TURNSTILE_TEST_SECRETS.pass,
    notify: ['team@example.com'],
  },
};
const TOKEN = { 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' };
const sqliteEnv = (dataDir: string) => ({ DATA_DIR: dataDir, DATABASE_URL: '' });
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every path under `dir` with its mode (directories end in `/`). */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(e.parentPath, e.name);
    out.set(full.slice(dir.length + 1) + (e.isDirectory() ? '/' : ''), modeOf(full));
  }
  return out;
}

function expectPrivate(dir: string): void {
  expect(modeOf(dir)).toBe(0o700);
  for (const [path, mode] of modes(dir))
    expect([path, mode]).toEqual([path, path.endsWith('/') ? 0o700 : 0o600]);
}

describe('backup and restore on SQLite', { timeout: PROCESS_TEST_MS }, () => {
  let t: FormsApp;
  let smtp: SmtpTestServer;
  const { submit } = formClient(() => t);
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    t = await openFormsApp('sqlite', {
      worker: false,
      mail: { smtpUrl: smtp.url, from: 'Folio <forms@folio.test>', outboxDir: '/nonexistent' },
    });
    t.clock.current = new Date();
    await putForms(t, 'spc_test', [contact]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('restores cv, crop signatures and the outbox: pinned URLs answer, nothing sent goes out again', async () => {
    const runner = createJobRunner({ store: t.store, blobs: t.blobs, config: t.config });
    const sent = await submittedId(t.store, submit, 'contact', { ...VALID_CONTACT, ...TOKEN });
    await drainJobs(t.store, runner);
    expect(smtp.messagesFor(sent)).toHaveLength(1);
    // Submitted, its mail not sent yet: it goes out once, after the restore.
    const waiting = await submittedId(t.store, submit, 'contact', { ...VALID_CONTACT, ...TOKEN });
    const cv = (await t.inject({ method: 'GET', url: '/v1/spc_test/status', headers: pub })).body
      .cv as number;
    expect(cv).toBeGreaterThan(1);
    const pinned = `/v1/spc_test/entries/ent_home?cv=${cv}`;
    const home = await t.inject({ method: 'GET', url: pinned, headers: pub });
    expect(home.status).toBe(200);
    const crop = /\/v1\/spc_test\/assets\/ast_pic\/[^"]*\bsig=[\w-]{22}/.exec(home.text)?.[0];
    expect(crop, 'a signed crop in ent_home').toBeDefined();
    expect((await t.inject({ method: 'GET', url: crop ?? '' })).status).toBe(200);

    // Online: the app still has the store open.
    const backup = join(tempDir('folio-backup-'), 'b');
    const made = await runFolio(['backup', backup], sqliteEnv(t.dataDir));
    expect(made.code, made.out).toBe(0);
    expectPrivate(backup);
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'folio-backup/1',
      engine: 'sqlite',
      spaces: [{ id: 'spc_test', cv }],
      secret: { source: 'store' },
      blobs: { kind: 'local' },
    });
    expect(manifest.schema).toMatch(/^\d{4}/);
    const paths = manifest.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('folio.sqlite');
    expect(paths.some((p: string) => p.startsWith('blobs/'))).toBe(true);
    expect(manifest.files[0]).toMatchObject({
      size: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const target = tempDir('folio-restored-');
    const restored = await runFolio(['restore', backup], sqliteEnv(target));
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain(`spc_test cv ${cv}`);
    expect(modeOf(join(target, 'folio.sqlite'))).toBe(0o600);
    expect(modeOf(join(target, 'blobs'))).toBe(0o700);
    // A second restore would replace what is there now: only when asked.
    const again = await runFolio(['restore', backup], sqliteEnv(target));
    expect(again.code).toBe(1);
    expect(again.out).toContain('--force');
    expect((await runFolio(['restore', backup, '--force'], sqliteEnv(target))).code).toBe(0);

    const store = await openStore({ engine: 'sqlite', file: join(target, 'folio.sqlite') });
    const blobs = new LocalDirBlobStore(join(target, 'blobs'));
    const config: Config = {
      ...t.config,
      dataDir: target,
      store: { engine: 'sqlite', file: join(target, 'folio.sqlite') },
      blobs: { kind: 'local', dir: join(target, 'blobs') },
    };
    const app = await buildApp({ config, store, blobs });
    try {
      expect(await loadMasterKey(store, null)).toEqual(await loadMasterKey(t.store, null));
      expect((await app.inject({ method: 'GET', url: pinned, headers: pub })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: crop ?? '' })).statusCode).toBe(200);
      await drainJobs(store, createJobRunner({ store, blobs, config }));
      expect(smtp.messagesFor(sent)).toHaveLength(1);
      expect(smtp.messagesFor(waiting)).toHaveLength(1);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('refuses a damaged backup and restores nothing', async () => {
    const backup = join(tempDir('folio-backup-'), 'b');
    expect((await runFolio(['backup', backup], sqliteEnv(t.dataDir))).code).toBe(0);
    // A backup directory refuses to be written twice.
    expect((await runFolio(['backup', backup], sqliteEnv(t.dataDir))).code).toBe(1);
    const blob = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8')).files.find(
      (f: { path: string }) => f.path.startsWith('blobs/'),
    ).path as string;
    writeFileSync(join(backup, blob), 'not the bytes');
    const target = tempDir('folio-restored-');
    const res = await runFolio(['restore', backup], sqliteEnv(target));
    expect(res.code).toBe(1);
    expect(res.out).toContain(blob);
    expect(readdirSync(target)).toEqual([]);
  });

  it('folio export leaves forms’ and webhooks’ secrets out unless --secrets', async () => {
    const now = new Date().toISOString();
    const signing = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await insertWebhooks(t.store.db, [
      {
        id: 'whk_backup',
        spaceId: 'spc_test',
        url: 'https://hooks.example/folio',
        events: ['menu.updated'],
        secret: signing,
        enabled: true,
        disabledReason: null,
        position: 0,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    const plain = join(tempDir('folio-export-'), 'x');
    expect((await runFolio(['export', 'spc_test', plain], sqliteEnv(t.dataDir))).code).toBe(0);
    const text = readFileSync(join(plain, 'bundle.json'), 'utf8');
    expect(text).toContain('"turnstileSiteKey"');
    expect(text).not.toContain('turnstileSecret');
    expect(text).toContain('https://hooks.example/folio');
    expect(text).not.toContain(signing);
    const full = join(tempDir('folio-export-'), 'x');
    expect((await runFolio(['export', 'spc_test', full, '--secrets'], sqliteEnv(t.dataDir))).code).toBe(0);
    const kept = readFileSync(join(full, 'bundle.json'), 'utf8');
    expect(kept).toContain(`"turnstileSecret": "${TURNSTILE_TEST_SECRETS.pass}"`);
    expect(kept).toContain(signing);
  });
});

describe('backup and restore on PostgreSQL', { timeout: PROCESS_TEST_MS }, () => {
  let env: TestEnv;
  const dirs: string[] = [];
  beforeAll(async () => {
    env = await openTestEnv('postgres');
    await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: await fixtureDir() });
  });
  afterAll(async () => {
    await env.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const pgEnv = (dataDir: string) => ({
    DATA_DIR: dataDir,
    DATABASE_URL,
    DATABASE_SCHEMA: env.storeConfig.engine === 'postgres' ? (env.storeConfig.schema ?? '') : '',
  });

  it('copies the files and hashes the dump of the documented procedure; restore checks it against the store', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'folio-backup-'));
    dirs.push(parent);
    const backup = join(parent, 'b');
    // What the procedure's pg_dump leaves (its bytes do not matter here), world-readable under umask 022.
    const bare = await runFolio(['backup', join(parent, 'nodump')], pgEnv(env.dataDir));
    expect(bare.code, bare.out).toBe(0);
    expect(bare.out).toContain('pg_dump');
    rmSync(join(parent, 'nodump'), { recursive: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(backup, { mode: 0o755 }));
    writeFileSync(join(backup, 'folio.pgdump'), 'PGDMP…', { mode: 0o644 });
    const made = await runFolio(['backup', backup], pgEnv(env.dataDir));
    expect(made.code, made.out).toBe(0);
    expectPrivate(backup);
    const manifest = JSON.parse(readFileSync(join(backup, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ engine: 'postgres', spaces: [{ id: 'spc_test', cv: 1 }] });
    const paths = manifest.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('folio.pgdump');
    expect(paths.some((p: string) => p.startsWith('blobs/'))).toBe(true);

    // The database is this one (as pg_restore would have left it): the files come back, the cv is checked.
    const target = mkdtempSync(join(tmpdir(), 'folio-restored-'));
    dirs.push(target);
    const restored = await runFolio(['restore', backup], pgEnv(target));
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('spc_test cv 1');
    expectPrivate(join(target, 'blobs'));
    expect(readdirSync(join(target, 'blobs')).length).toBeGreaterThan(0);
  });
});
