import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importBundle } from '../src/bundle/import-bundle.js';
import { enqueueEvent } from '../src/jobs/outbox-repo.js';
import { insertWebhooks } from '../src/webhooks/webhooks-repo.js';
import { DATABASE_URL, ENGINES, openTestEnv } from './helpers/engines.js';
import { fixtureBundle, fixtureDir } from './helpers/fixture.js';
import { PROCESS_TEST_MS } from './helpers/processes.js';
import { verifyStandardWebhook, WebhookReceiver } from './helpers/webhook-receiver.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'folio.js');
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe.each(ENGINES)('folio worker on %s', { timeout: PROCESS_TEST_MS }, (engine) => {
  it('delivers what the outbox holds without an HTTP server, and stops cleanly on SIGTERM', async () => {
    const env = await openTestEnv(engine);
    const receiver = await WebhookReceiver.start();
    try {
      const dir = await fixtureDir();
      await importBundle(env.store, env.blobs, fixtureBundle(), { baseDir: dir });
      rmSync(dir, { recursive: true, force: true });
      const now = new Date().toISOString();
      await insertWebhooks(env.store.db, [
        {
          id: 'whk_worker',
          spaceId: 'spc_test',
          url: receiver.url,
          events: ['menu.updated'],
          secret: SECRET,
          enabled: true,
          disabledReason: null,
          position: 0,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      const event = await enqueueEvent(env.store.db, 'spc_test', 'menu.updated', { key: 'main', cv: 1 });
      const storeEnv =
        env.storeConfig.engine === 'postgres'
          ? { DATABASE_URL, DATABASE_SCHEMA: env.storeConfig.schema ?? '' }
          : { DATABASE_URL: '', DATA_DIR: env.dataDir };
      const child = spawn(process.execPath, [BIN, 'worker'], {
        env: { ...process.env, ...storeEnv, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        const [got] = await receiver.waitFor((r) => r.length >= 1);
        expect(got!.headers['webhook-id']).toBe(event.id);
        expect(verifyStandardWebhook(SECRET, got!.headers, got!.body)).toBe(true);
        expect(out).toMatch(/Folio worker .* is running/);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      const row = await env.store.db
        .selectFrom('outbox')
        .select('status')
        .where('id', '=', `${event.id}.whk_worker`)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('done');
    } finally {
      await receiver.close();
      await env.close();
    }
  });
});
